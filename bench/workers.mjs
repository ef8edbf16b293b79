// The Cloudflare Workers rows of #29: on local workerd, createPetStore against the Hono peer doing the same work, and petStoreWorker over D1 and Durable Objects.
// `node bench/workers.mjs [--quick]` (after `npm run build`) runs them alone and prints the section.
import { pathToFileURL } from 'node:url';
import { f, KEY, ratioPerPass, startServer, summarize, takeTurns } from './load.mjs';
import { assertSameWork, SCENARIOS } from './peers/same-work.mjs';

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
 * not compared), then loads `scenarios` on all three `passes` times, taking turns. Resolves to
 * `{ peers: { [scenario]: { [kind]: summary } } }` with `oursOver` (÷ Hono) on petstore and d1.
 * workerd runs in Miniflare's child process, so no CPU per answer is read.
 */
export async function workersBenchmarks({ passes, seconds, scenarios = WORKERS_SCENARIOS, progress = () => {} }) {
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
      })),
    );
    progress(`Workers on local workerd: ${scenarios.map((s) => SCENARIOS[s].short).join(', ')}, ours (memory, D1) and Hono`);
    const runs = await takeTurns(groups, { passes, seconds });
    const peers = {};
    for (const job of groups.flat()) (peers[job.scenario] ??= {})[job.kind] = summarize(runs.get(job));
    for (const byServer of Object.values(peers)) {
      byServer.petstore.oursOver = ratioPerPass(byServer.petstore, byServer.hono);
      byServer.d1.oursOver = ratioPerPass(byServer.d1, byServer.hono);
    }
    return { peers, sameWork, seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    return { missing: `the Workers could not be measured: ${error.message.split('\n')[0]}`, seconds: (Date.now() - started) / 1000 };
  } finally {
    for (const server of Object.values(servers)) server.stop();
  }
}

/** The target rows, as bench/index.mjs lists them: `[name, goal, measured, met]`. */
export function workersTargets(result) {
  const label = 'workerd: req/s `createPetStore()` ÷ Hono 4, same work, in a Worker';
  if (result.missing) return [[label, `≥ ${WORKERS_GOAL}×`, result.missing, false]];
  const entries = Object.entries(result.peers);
  const ratios = entries.map(([, byServer]) => byServer.petstore.oursOver);
  return [
    [
      `${label} (${entries.map(([s]) => SCENARIOS[s].short).join(' · ')})`,
      `≥ ${WORKERS_GOAL}× each`,
      ratios.map((r) => `${f(r, 2)}×`).join(' · '),
      ratios.every((r) => r >= WORKERS_GOAL),
    ],
  ];
}

/** The section for BENCHMARKS.md. */
export function workersSection(result, { passes, seconds }) {
  const rows = result.missing
    ? []
    : Object.entries(result.peers).flatMap(([scenario, byServer]) =>
        Object.entries(byServer).map(
          ([kind, r]) =>
            `| ${SCENARIOS[scenario].title} | ${SERVERS[kind]} | ${f(r.rps)} | ${kind === 'hono' ? '1×' : `**${f(r.oursOver, 2)}×**`} | ${f(r.p50)} | ${f(r.p99)} | ${r.runs.map((run) => f(run.rps)).join(' · ')} |`,
        ),
      );
  return `## Cloudflare Workers on local workerd

Three Workers, each on workerd from npm through Miniflare in its own process (bench/workers/server.mjs),
bundled as wrangler bundles them: our \`createPetStore()\` and the Hono peer of bench/peers/hono-app.mjs over
the same seeded memory stores (they answer every scenario and probe alike before anything is
measured), and \`petStoreWorker()\` with its pets in local D1 and its limits in local Durable Objects,
seeded with the same 100 pets. Load from Node's autocannon, 10 connections, ${passes} passes of ${seconds} s
taking turns; **÷ Hono** is the median of the per-pass ratios. Local D1 and Durable Objects are
SQLite files beside workerd, so the D1 rows show what the stores cost in calls and statements, not
Cloudflare's network.
${result.missing ? `\n- ${result.missing}\n` : ''}
| Scenario | Worker | req/s | ÷ Hono | p50 µs | p99 µs | req/s per pass |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

This part took ${f(result.seconds / 60, 1)} minutes.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const settings = process.argv.includes('--quick') ? { passes: 2, seconds: 1.5 } : { passes: 5, seconds: 3 };
  const result = await workersBenchmarks({ ...settings, progress: (line) => console.error(line) });
  console.log('| Target | Goal | Measured | |\n| --- | --- | --- | --- |');
  for (const [name, goalText, value, ok] of workersTargets(result)) console.log(`| ${name} | ${goalText} | ${value} | ${ok ? '✅ met' : '❌ missed'} |`);
  console.log(`\n${workersSection(result, settings)}`);
}
