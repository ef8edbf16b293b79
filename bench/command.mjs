// The command as `npm start` runs it against the library, GET /v1/pets, taking turns (issue 26: "the
// command within 10 % of serve(createPetStore()) on GET"). `node bench/command.mjs [--quick]
// [--rounds=N] [--seconds=S]` (after `npm run build`) runs it alone; npm run bench measures the same
// servers as rows of bench/http.mjs's table and imports its start, seed and log helpers.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { cpuRatioPerRound, f, KEY, pinned, ratioPerRound, roundSettings, SEED_KEY, SEEDED, seed, startServer, summarize, takeTurns } from './load.mjs';
import { meets, shown } from './stats.mjs';

export { seed } from './load.mjs';
import { sample, SCENARIOS } from './peers/same-work.mjs';

/** The goal: the command's GET req/s at least this share of `serve(createPetStore())`'s, i.e. within 10 %. */
const COMMAND_GOAL = 0.9;
/** The servers compared, the library first: the ratios are to it. */
const SERVERS = {
  store: '`serve(createPetStore(…))`',
  logged: '`node dist/cli/index.js`, access log on (to a file)',
  quiet: '`node dist/cli/index.js --quiet`',
};
/** The bench's key, as the command takes it: the enterprise plan with the quota bench/http-server.mjs gives it. */
const KEY_FLAG = `${KEY}:enterprise:1000000000:1000000000`;

/**
 * Starts `node dist/cli/index.js --port 0 --key <key> --key <seeding key> [args]` (what `npm start`
 * runs) on the servers' core (bench/load.mjs `pinned`), its stdout (the start lines, then the access log) written to `file`, and resolves to its
 * origin, process id and a stop function once it has said where it listens.
 */
export async function startCommand(args, file) {
  const stdout = openSync(file, 'w');
  const keys = ['--key', KEY_FLAG, '--key', `${SEED_KEY}:enterprise:1000:1000`];
  const argv = pinned([process.execPath, 'dist/cli/index.js', '--port', '0', ...keys, ...args]);
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', stdout, 'inherit'] });
  closeSync(stdout);
  let listening;
  while (!(listening = /listening on (http:\/\/[^/\s]+)\/v1\n/.exec(readFileSync(file, 'utf8')))) {
    if (child.exitCode !== null) throw new Error(`the command exited (${child.exitCode}): ${readFileSync(file, 'utf8')}`);
    await sleep(20);
  }
  return { url: listening[1], pid: child.pid, stop: () => child.kill() };
}

/** Access-log lines in `file`: every line after the command's start lines that looks like `GET /v1/pets 200 0.1ms 127.0.0.1`. */
export const accessLines = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z]+ \/\S* \d{3} [\d.]+ms \S+$/.test(line)).length;

/** Lines in `file`, counted in 1 MiB reads: a log of millions of lines is never one string in memory. */
export function lineCount(file) {
  const buffer = Buffer.alloc(2 ** 20);
  const fd = openSync(file, 'r');
  let lines = 0;
  try {
    for (let read; (read = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
      for (let at = buffer.indexOf(10); at !== -1 && at < read; at = buffer.indexOf(10, at + 1)) lines++;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

/**
 * Starts the library's server (bench/http-server.mjs `store`) and the command twice (its access log
 * to a file in a temp directory, and `--quiet`), seeds the command's pets over HTTP (with a key of their own), checks the
 * three answer the GET alike (status, every header but times, body), then measures
 * GET /v1/pets on each in `rounds` rounds of `seconds`, taking turns (bench/load.mjs). Resolves to each server's
 * medians with `ratio` (its req/s ÷ the library's, per round: median and interval), `cpu`
 * (server CPU µs per answer) and `cpuRatio` (the library's CPU per answer ÷ its, per round),
 * and what the log holds.
 */
async function commandBenchmark({ rounds, seconds, warmup }) {
  const directory = mkdtempSync(join(tmpdir(), 'petstore-bench-command-'));
  const files = { logged: join(directory, 'logged.log'), quiet: join(directory, 'quiet.log') };
  const servers = {};
  try {
    servers.store = await startServer('store');
    servers.logged = await startCommand([], files.logged);
    servers.quiet = await startCommand(['--quiet'], files.quiet);
    // The library's server is seeded over HTTP too, by startServer (bench/http-server.mjs `store`).
    for (const kind of ['logged', 'quiet']) await seed(servers[kind].url);
    const answers = {};
    for (const kind of Object.keys(SERVERS)) answers[kind] = await sample(servers[kind].url, KEY, SCENARIOS.list);
    for (const kind of ['logged', 'quiet']) {
      if (answers.store.status !== 200) throw new Error(`serve(createPetStore()) answered GET with ${answers.store.status}`);
      if (!isDeepStrictEqual(answers[kind], answers.store)) {
        throw new Error(
          `${kind} answers GET unlike serve(createPetStore()); nothing was measured.\n  store: ${JSON.stringify(answers.store)}\n  ${kind}: ${JSON.stringify(answers[kind])}`,
        );
      }
    }
    const before = { logged: accessLines(files.logged), quiet: accessLines(files.quiet) };
    const jobs = Object.keys(SERVERS).map((kind) => ({
      kind,
      name: `GET — ${kind}`,
      status: 200,
      options: SCENARIOS.list.load(servers[kind].url, KEY),
      pid: servers[kind].pid,
    }));
    const runs = await takeTurns([jobs], { rounds, seconds, warmup });
    const result = Object.fromEntries(jobs.map((job) => [job.kind, summarize(runs.get(job))]));
    for (const summary of Object.values(result)) {
      summary.ratio = ratioPerRound(summary, result.store);
      // Server CPU per answer, steadier than req/s on a shared machine: serve()'s ÷ this one's is the req/s ratio at equal CPU.
      summary.cpuRatio = cpuRatioPerRound(summary, result.store);
    }
    const answered = (kind) => result[kind].runs.reduce((sum, run) => sum + run.answered, 0);
    const log = {
      lines: accessLines(files.logged) - before.logged,
      answered: answered('logged'),
      bytes: statSync(files.logged).size,
      quietLines: accessLines(files.quiet) - before.quiet,
    };
    // Every answer measured (plus the warm-up's) must be a line: else the log was not on, or lost lines.
    if (log.lines < log.answered || before.logged < SEEDED + 1) throw new Error(`the access log holds ${log.lines} lines for ${log.answered} answers measured`);
    if (log.quietLines !== 0 || before.quiet !== 0) throw new Error(`--quiet wrote ${before.quiet + log.quietLines} access-log lines`);
    return { ...result, log };
  } finally {
    for (const server of Object.values(servers)) server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Met only when the whole interval of the per-round ratios is at or above the goal. */
const met = (ratio) => meets(ratio, COMMAND_GOAL);

/** The section for BENCHMARKS.md: the three servers' rows, the ratios and the verdicts, as Markdown. */
function commandSection(result, { rounds, seconds }) {
  const rows = Object.entries(SERVERS).map(([kind, name]) => {
    const r = result[kind];
    const ratio = kind === 'store' ? '1×' : `**${shown(r.ratio)}**`;
    return `| ${name} | ${f(r.rps)} | ${ratio} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.cpu, 1)}${kind === 'store' ? '' : ` (${shown(r.cpuRatio)})`} |`;
  });
  const verdict = (kind) => `${shown(result[kind].ratio)} — ${met(result[kind].ratio) ? '✅ within' : '❌ not within'} 10 %`;
  return `## The command (\`npm start\`) vs \`serve(createPetStore())\`, GET /v1/pets

The first page of 20 pets (of ${SEEDED}) with the enterprise key, from \`serve(createPetStore(…))\` of
\`petstore-service/node\` (the same key and memory stores as the command makes, \`onError\`, no other
option) and from \`node dist/cli/index.js --port 0 --key <key>:enterprise:…\` as \`npm start\` runs it,
its pets created over HTTP, once with its access log (the default: a line per request on stdout,
here a file) and once with \`--quiet\`. The three answer the GET alike (status, every header but
times, body) before anything is measured. ${rounds} rounds of one ${seconds} s block each, the servers taking turns in
an order rotating each round; **÷ serve()** is the median of the per-round ratios of req/s, its 95 %
bootstrap interval in brackets. CPU is the server process's time on a CPU (schedstat, the log's
writes included) per answer, and in brackets serve()'s ÷ it, per round: the req/s ratio at equal
CPU, steadier than req/s when the machine is shared. A goal is met when the whole interval meets it.

| Server | req/s | ÷ serve() | p50 µs | p99 µs | CPU µs per answer (at equal CPU) |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

With its access log, as \`npm start\` runs it: ${verdict('logged')} (goal ≥ ${COMMAND_GOAL}×). With \`--quiet\`: ${verdict('quiet')}.
The log took ${f(result.log.lines)} lines (${f(result.log.bytes / 2 ** 20, 1)} MiB with the warm-up and seeding) for ${f(result.log.answered)} answers measured.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const settings = roundSettings();
  const started = Date.now();
  const result = await commandBenchmark(settings);
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s in all, Node ${process.version}\n`);
  console.log(commandSection(result, settings));
}
