// The Cloudflare Workers rows of #29: on local workerd, createPetStore against the Hono peer doing the same work, and petStoreWorker over D1 and Durable Objects.
// `node bench/workers.mjs [--quick] [--rounds=N --seconds=S]` (after `npm run build`) runs them alone and prints the section.
import { pathToFileURL } from 'node:url';
import { cpuRatioPerRound, f, KEY, ratioPerRound, roundSettings, startServer, summarize, takeTurns } from './load.mjs';
import { assertSameWork, SCENARIOS } from './peers/same-work.mjs';
import { shown, targetRow } from './stats.mjs';

/** The Workers measured, ours first: each row's ratio is over Hono's. */
const SERVERS = {
  petstore: '`createPetStore()` in a Worker, memory stores',
  hono: 'Hono 4 in a Worker, memory stores',
  d1: '`petStoreWorker()`: D1 and Durable Objects',
};
/** Ours ÷ Hono on workerd, same work: the goal, as on Deno and Bun. */
export const WORKERS_GOAL = 1;
export const WORKERS_SCENARIOS = ['list', 'create'];

/**
 * Starts the three Workers (bench/workers/server.mjs), checks that ours and Hono answer every
 * scenario and probe alike (the D1 Worker keeps its limits and pets elsewhere, so it is measured,
 * not compared), then loads `scenarios` on all three in `rounds` rounds of `seconds`, taking turns.
 * Resolves to `{ peers: { [scenario]: { [kind]: summary } } }` with `oursOver` (÷ Hono per round:
 * median and interval) and `atEqualCpu` on petstore and d1. workerd runs in Miniflare's child
 * process (it inherits the server's core): CPU per answer is the whole process tree's (bench/load.mjs).
 */
export async function workersBenchmarks({ rounds, seconds, warmup, scenarios = WORKERS_SCENARIOS, progress = () => {} }) {
  const started = Date.now();
  const servers = {};
  try {
    for (const kind of Object.keys(SERVERS)) servers[kind] = await startServer(kind, [], [process.execPath, 'bench/workers/server.mjs', kind, KEY]);
    const sameWork = await assertSameWork({ petstore: servers.petstore.url, hono: servers.hono.url }, KEY);
    const groups = scenarios.map((scenario) =>
      Object.keys(SERVERS).map((kind) => ({
        scenario,
        kind,
        name: `workerd ${SCENARIOS[scenario].short} — ${kind}`,
        status: SCENARIOS[scenario].status,
        options: SCENARIOS[scenario].load(servers[kind].url, KEY),
        pid: servers[kind].pid,
      })),
    );
    progress(`Workers on local workerd: ${scenarios.map((s) => SCENARIOS[s].short).join(', ')}, ours (memory, D1) and Hono`);
    const runs = await takeTurns(groups, { rounds, seconds, warmup });
    const peers = {};
    for (const job of groups.flat()) (peers[job.scenario] ??= {})[job.kind] = summarize(runs.get(job));
    for (const byServer of Object.values(peers)) {
      for (const kind of ['petstore', 'd1']) {
        byServer[kind].oursOver = ratioPerRound(byServer[kind], byServer.hono);
        byServer[kind].atEqualCpu = cpuRatioPerRound(byServer[kind], byServer.hono);
      }
    }
    return { peers, sameWork, seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    return { missing: `the Workers could not be measured: ${error.message.split('\n')[0]}`, seconds: (Date.now() - started) / 1000 };
  } finally {
    for (const server of Object.values(servers)) server.stop();
  }
}

/** The target rows, as bench/index.mjs lists them: `[name, goal, measured, met, ratios]`. */
export function workersTargets(result) {
  const label = 'workerd: req/s `createPetStore()` ÷ Hono 4, same work, in a Worker';
  if (result.missing) return [[label, `≥ ${WORKERS_GOAL}×`, result.missing, false]];
  const entries = Object.entries(result.peers);
  return [
    targetRow(
      `${label} (${entries.map(([s]) => SCENARIOS[s].short).join(' · ')})`,
      WORKERS_GOAL,
      entries.map(([s, byServer]) => [SCENARIOS[s].short, byServer.petstore.oursOver]),
      { after: `; at equal CPU ${entries.map(([, byServer]) => shown(byServer.petstore.atEqualCpu)).join(' · ')}` },
    ),
  ];
}

/** The section for BENCHMARKS.md. */
export function workersSection(result, { rounds, seconds }) {
  const rows = result.missing
    ? []
    : Object.entries(result.peers).flatMap(([scenario, byServer]) =>
        Object.entries(byServer).map(
          ([kind, r]) =>
            `| ${SCENARIOS[scenario].title} | ${SERVERS[kind]} | ${f(r.rps)} | ${kind === 'hono' ? '1×' : `**${shown(r.oursOver)}**`} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.cpu, 1)} |`,
        ),
      );
  return `## Cloudflare Workers on local workerd

Three Workers, each on workerd from npm through Miniflare in its own process (bench/workers/server.mjs),
bundled as wrangler bundles them: our \`createPetStore()\` and the Hono peer of bench/peers/hono-app.mjs over
the same seeded memory stores (they answer every scenario and probe alike before anything is
measured), and \`petStoreWorker()\` with its pets in local D1 and its limits in local Durable Objects,
seeded with the same 100 pets. Load from Node's autocannon, 10 connections, ${rounds} rounds of a ${seconds} s
block each, taking turns; **÷ Hono** is the median of the per-round ratios, its 95 % bootstrap interval in
brackets. CPU per answer is the server's process tree's (Miniflare's node and its workerd). Local D1 and Durable Objects are
SQLite files beside workerd, so the D1 rows show what the stores cost in calls and statements, not
Cloudflare's network.
${result.missing ? `\n- ${result.missing}\n` : ''}
| Scenario | Worker | req/s | ÷ Hono | p50 µs | p99 µs | CPU µs per answer |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

This part took ${f(result.seconds / 60, 1)} minutes.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const settings = roundSettings();
  const result = await workersBenchmarks({ ...settings, progress: (line) => console.error(line) });
  console.log('| Target | Goal | Measured | |\n| --- | --- | --- | --- |');
  for (const [name, goalText, value, ok] of workersTargets(result)) console.log(`| ${name} | ${goalText} | ${value} | ${ok ? '✅ met' : '❌ missed'} |`);
  console.log(`\n${workersSection(result, settings)}`);
}
