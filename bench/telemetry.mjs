// The cost of telemetry on a GET (#38): serve() without it, with `telemetry: openTelemetry()` and no provider registered, and with an SDK recording every span, taking turns.
// `node bench/telemetry.mjs [--quick]` (after `npm run build`) runs it alone and prints its table. With
// PETSTORE_BENCH_BEFORE=<another checkout, dist/ built> it adds that build's serve() as a fourth server:
// `git worktree add /tmp/before <rev> && (cd /tmp/before && npm ci && npx tsup)` measures the code before a change in the same run.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { pathToFileURL } from 'node:url';
import { cpuRatioPerPass, f, KEY, ratioPerPass, startServer, summarize, takeTurns } from './load.mjs';
import { SCENARIOS } from './peers/same-work.mjs';

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
 * Starts the servers, then runs the GET (a 20-pet page, the enterprise key) on each `passes` times,
 * taking turns. Resolves to each server's medians (`rps`, `cpu` µs per answer), with `rate` (its
 * req/s ÷ serve()'s in the same pass) and `cpuRate` (serve()'s CPU per answer ÷ its own), medians of the passes.
 */
export async function telemetryBenchmark({ passes, seconds, progress = () => {} }) {
  // Twice the passes of the other tables: the goal is a 2 % difference, and one pass varies by more.
  passes *= 2;
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
    const runs = await takeTurns([group], { passes, seconds, onPass: (pass) => progress(`telemetry pass ${pass + 1} of ${passes}`) });
    const results = Object.fromEntries(group.map((job) => [job.kind, summarize(runs.get(job))]));
    for (const kind of Object.keys(kinds)) {
      results[kind].rate = ratioPerPass(results[kind], results.petstore);
      results[kind].cpuRate = cpuRatioPerPass(results[kind], results.petstore);
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

/** The target row: the GET with openTelemetry() and no provider, ÷ serve()'s, by req/s and by CPU. */
export function telemetryTargets({ results, profiled }) {
  const row = (name, { rate, cpuRate }) => [name, `≥ ${TELEMETRY_GOAL}×`, `${f(rate, 3)}× (${f(cpuRate, 3)}×)`, Math.max(rate, cpuRate) >= TELEMETRY_GOAL];
  // The before row compares the other way round: serve() now ÷ serve() before the change.
  const invert = ({ rate, cpuRate }) => ({ rate: 1 / rate, cpuRate: 1 / cpuRate });
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
      `| ${label} | ${f(results[kind].rps)} | ${f(results[kind].cpu, 1)} | ${f(results[kind].rate, 3)}× | ${f(results[kind].cpuRate, 3)}× | ${results[kind].runs.map((run) => f(run.rps)).join(' · ')} |`,
  );
  return `## Telemetry (\`petstore-service/opentelemetry\`)

GET /v1/pets (the 20-pet page, the enterprise key) on \`serve()\`, ${Object.keys(servers).length} ways, ${results.petstore.runs.length} passes of ${seconds} s taking turns.
**× serve()** is the row's req/s ÷ serve()'s in the same pass, and serve()'s server CPU per answer ÷ the row's,
medians of the passes. Without the option nothing of telemetry runs: the request path only skips its notes.

| Server | req/s | CPU µs/answer | × serve() (req/s) | × serve() (CPU) | per pass |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

The same server with \`openTelemetry()\` and no provider, profiled (\`--cpu-prof\`) over ${f(PROFILED_GETS)} GETs: the
functions of petstore-service/opentelemetry and @opentelemetry/api took ${f(profiled.share * 100, 2)} % of its busy CPU,
${f(profiled.nsPerGet, 0)} ns of ${f(profiled.busyUsPerGet, 1)} µs per GET. On a shared machine the req/s ratios above move by
several percent between identical builds (compare the build before the change); the profile's share does not.
`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const settings = quick ? { passes: 3, seconds: 1.5 } : { passes: 7, seconds: 3 };
  const measured = await telemetryBenchmark({ ...settings, progress: (line) => console.error(line) });
  console.log(telemetrySection(measured, settings));
  for (const [name, goal, value, ok] of telemetryTargets(measured)) console.log(`${name}: ${value} (goal ${goal}) ${ok ? 'met' : 'missed'}`);
}
