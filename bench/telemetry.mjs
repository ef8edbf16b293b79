// The cost of telemetry on a GET (#38): serve() without it, with `telemetry: openTelemetry()` and no provider registered, and with an SDK recording every span, taking turns.
// `node bench/telemetry.mjs [--quick]` (after `npm run build`) runs it alone and prints its table. With
// PETSTORE_BENCH_BEFORE=<another checkout, dist/ built> it adds that build's serve() as a fourth server:
// `git worktree add /tmp/before <rev> && (cd /tmp/before && npm ci && npx tsup)` measures the code before a change in the same run.
import { join } from 'node:path';
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
    return { servers: kinds, results };
  } finally {
    for (const server of Object.values(servers)) server.stop();
  }
}

/** The target row: the GET with openTelemetry() and no provider, ÷ serve()'s, by req/s and by CPU. */
export function telemetryTargets({ results }) {
  const row = (name, { rate, cpuRate }) => [name, `≥ ${TELEMETRY_GOAL}×`, `${f(rate, 3)}× (${f(cpuRate, 3)}×)`, Math.max(rate, cpuRate) >= TELEMETRY_GOAL];
  // The before row compares the other way round: serve() now ÷ serve() before the change.
  const invert = ({ rate, cpuRate }) => ({ rate: 1 / rate, cpuRate: 1 / cpuRate });
  return [
    row('GET with `telemetry: openTelemetry()` and no provider registered ÷ without it, req/s (CPU per answer)', results.otel),
    ...(results.before ? [row('GET on `serve()` ÷ the same before the change (PETSTORE_BENCH_BEFORE), req/s (CPU per answer)', invert(results.before))] : []),
  ];
}

/** The section of BENCHMARKS.md. */
export function telemetrySection({ servers, results }, { passes, seconds }) {
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
`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const settings = quick ? { passes: 3, seconds: 1.5 } : { passes: 7, seconds: 3 };
  const measured = await telemetryBenchmark({ ...settings, progress: (line) => console.error(line) });
  console.log(telemetrySection(measured, settings));
  for (const [name, goal, value, ok] of telemetryTargets(measured)) console.log(`${name}: ${value} (goal ${goal}) ${ok ? 'met' : 'missed'}`);
}
