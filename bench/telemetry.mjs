// The cost of telemetry on a GET (#38): serve() without it, with `telemetry: openTelemetry()` and no provider registered, and with an SDK recording every span, taking turns.
// `node bench/telemetry.mjs [--quick] [--rounds=N --seconds=S]` (after `npm run build`) runs it alone and prints its table. With
// PETSTORE_BENCH_BEFORE=<another checkout, dist/ built> it adds that build's serve() as a fourth server:
// `git worktree add /tmp/before <rev> && (cd /tmp/before && npm ci && npx tsup)` measures the code before a change in the same run.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { pathToFileURL } from 'node:url';
import { cpuRatioPerRound, f, KEY, ratioPerRound, roundSettings, startServer, summarize, takeTurns } from './load.mjs';
import { SCENARIOS } from './peers/same-work.mjs';
import { meets, shown } from './stats.mjs';

/** The servers, all `serve()` set up as bench/http-server.mjs's `petstore`; the ratios are to the first. */
export const TELEMETRY_SERVERS = {
  petstore: '`serve()`, no `telemetry` option',
  otel: '`telemetry: openTelemetry()`, no provider registered',
  traced: '`telemetry: openTelemetry()`, an SDK recording every span and metric (spans batched, then dropped)',
};
const BEFORE = { before: '`serve()` of PETSTORE_BENCH_BEFORE (the build before the change)' };

/** #38: with the package in use but no provider registered, a GET keeps at least this share of serve()'s rate (and costs at most 1/this of its CPU). */
export const TELEMETRY_GOAL = 0.98;

/**
 * Starts the servers, then runs the GET (a 20-pet page, the enterprise key) on each in twice
 * `rounds` rounds of `seconds`, taking turns. Resolves to each server's medians (`rps`, `cpu` µs per
 * answer), with `rate` (its req/s ÷ serve()'s in the same round) and `cpuRate` (serve()'s CPU per
 * answer ÷ its own), medians of the rounds with their intervals.
 */
export async function telemetryBenchmark({ rounds, seconds, warmup, progress = () => {} }) {
  // Twice the rounds of the other tables: the goal is a 2 % difference, and one round varies by more.
  rounds *= 2;
  const before = process.env.PETSTORE_BENCH_BEFORE;
  const kinds = { ...TELEMETRY_SERVERS, ...(before ? BEFORE : {}) };
  const servers = {};
  try {
    for (const kind of Object.keys(TELEMETRY_SERVERS)) servers[kind] = await startServer(kind === 'petstore' ? kind : `petstore-${kind}`);
    if (before) servers.before = await startServer('before', [], [process.execPath, join(before, 'bench/http-server.mjs'), 'petstore', KEY]);
    const scenario = SCENARIOS.list;
    const group = Object.keys(kinds).map((kind) => ({
      kind,
      name: `${scenario.title} — ${kind}`,
      status: scenario.status,
      options: scenario.load(servers[kind].url, KEY),
      pid: servers[kind].pid,
    }));
    const runs = await takeTurns([group], { rounds, seconds, warmup, onRound: (round) => progress(`telemetry round ${round + 1} of ${rounds}`) });
    const results = Object.fromEntries(group.map((job) => [job.kind, summarize(runs.get(job))]));
    for (const kind of Object.keys(kinds)) {
      results[kind].rate = ratioPerRound(results[kind], results.petstore);
      results[kind].cpuRate = cpuRatioPerRound(results[kind], results.petstore);
    }
    return { servers: kinds, results, profiled: await telemetryShare() };
  } finally {
    for (const server of Object.values(servers)) server.stop();
  }
}

/** GETs the profiled server answers: enough for tens of thousands of samples, at a profile's ~1 ms sampling. */
const PROFILED_GETS = 150_000;

/**
 * What telemetry's own functions take of a server's CPU, with `openTelemetry()` and no provider: the
 * `petstore-otel` server under `--cpu-prof`, {@link PROFILED_GETS} GETs, and the self time of every
 * frame in petstore-service/opentelemetry or @opentelemetry/api ÷ the server's busy time. A share of
 * one process's own samples, so a busy machine does not move it as it moves req/s between processes.
 */
export async function telemetryShare() {
  const directory = mkdtempSync(join(tmpdir(), 'petstore-bench-telemetry-'));
  try {
    const server = await startServer('petstore-otel', ['--cpu-prof', `--cpu-prof-dir=${directory}`]);
    await autocannon({ ...SCENARIOS.list.load(server.url, KEY), connections: 10, amount: PROFILED_GETS });
    server.stop();
    let file;
    while (!(file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile')))) await new Promise((done) => setTimeout(done, 100));
    // The profile is written as the process exits: wait until it parses whole.
    let profile;
    while (!profile) {
      try {
        profile = JSON.parse(readFileSync(join(directory, file), 'utf8'));
      } catch {
        await new Promise((done) => setTimeout(done, 100));
      }
    }
    const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    let busy = 0;
    let telemetry = 0;
    profile.samples.forEach((id, i) => {
      const { functionName, url } = frames.get(id);
      if (functionName === '(idle)') return;
      busy += profile.timeDeltas[i];
      if (/\/opentelemetry\/|@opentelemetry\/api/.test(url)) telemetry += profile.timeDeltas[i];
    });
    return { share: telemetry / busy, nsPerGet: (telemetry * 1000) / PROFILED_GETS, busyUsPerGet: busy / PROFILED_GETS };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * The target rows: the GET with openTelemetry() and no provider, ÷ serve()'s, by req/s and by CPU
 * per answer (intervals); met, as before #49, when either interval's lower end reaches the goal.
 */
export function telemetryTargets({ results, profiled }) {
  const row = (name, { rate, cpuRate }) => [
    name,
    `≥ ${TELEMETRY_GOAL}×`,
    `${shown(rate, 3)}; CPU per answer ${shown(cpuRate, 3)}`,
    meets(rate, TELEMETRY_GOAL) || meets(cpuRate, TELEMETRY_GOAL),
    { [`${name} — req/s`]: rate, [`${name} — CPU`]: cpuRate },
  ];
  // The before row compares the other way round: serve() now ÷ serve() before the change.
  const flip = ({ median, low, high }) => ({ median: 1 / median, low: 1 / high, high: 1 / low });
  const invert = ({ rate, cpuRate }) => ({ rate: flip(rate), cpuRate: flip(cpuRate) });
  return [
    [
      "CPU in telemetry's own functions, `openTelemetry()` and no provider registered, share of a GET's server CPU (profiled)",
      `≤ ${f((1 - TELEMETRY_GOAL) * 100, 0)} %`,
      `${f(profiled.share * 100, 2)} % (${f(profiled.nsPerGet, 0)} ns of ${f(profiled.busyUsPerGet, 1)} µs)`,
      profiled.share <= 1 - TELEMETRY_GOAL,
    ],
    row('GET with `telemetry: openTelemetry()` and no provider registered ÷ without it, req/s (CPU per answer)', results.otel),
    ...(results.before ? [row('GET on `serve()` ÷ the same before the change (PETSTORE_BENCH_BEFORE), req/s (CPU per answer)', invert(results.before))] : []),
  ];
}

/** The section of BENCHMARKS.md. */
export function telemetrySection({ servers, results, profiled }, { seconds }) {
  const rows = Object.entries(servers).map(
    ([kind, label]) =>
      `| ${label} | ${f(results[kind].rps)} | ${f(results[kind].cpu, 1)} | ${kind === 'petstore' ? '1×' : shown(results[kind].rate, 3)} | ${kind === 'petstore' ? '1×' : shown(results[kind].cpuRate, 3)} |`,
  );
  return `## Telemetry (\`petstore-service/opentelemetry\`)

GET /v1/pets (the 20-pet page, the enterprise key) on \`serve()\`, ${Object.keys(servers).length} ways, ${results.petstore.runs.length} rounds of a ${seconds} s block each, taking turns.
**× serve()** is the row's req/s ÷ serve()'s in the same round, and serve()'s server CPU per answer ÷ the row's,
medians of the rounds with their 95 % bootstrap intervals. Without the option nothing of telemetry runs: the request path only skips its notes.

| Server | req/s | CPU µs/answer | × serve() (req/s) | × serve() (CPU) |
| --- | --- | --- | --- | --- |
${rows.join('\n')}

The same server with \`openTelemetry()\` and no provider, profiled (\`--cpu-prof\`) over ${f(PROFILED_GETS)} GETs: the
functions of petstore-service/opentelemetry and @opentelemetry/api took ${f(profiled.share * 100, 2)} % of its busy CPU,
${f(profiled.nsPerGet, 0)} ns of ${f(profiled.busyUsPerGet, 1)} µs per GET. On a shared machine the req/s ratios above move by
several percent between identical builds (compare the build before the change); the profile's share does not.
`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const settings = roundSettings();
  const measured = await telemetryBenchmark({ ...settings, progress: (line) => console.error(line) });
  console.log(telemetrySection(measured, settings));
  for (const [name, goal, value, ok] of telemetryTargets(measured)) console.log(`${name}: ${value} (goal ${goal}) ${ok ? 'met' : 'missed'}`);
}
