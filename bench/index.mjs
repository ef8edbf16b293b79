// npm run bench [-- --quick] [--rounds=N --seconds=S] [--json <file>] [--write | --no-write] [--stability]: every benchmark, the report on stdout, and BENCHMARKS.md rewritten (a full run; --quick only with --write).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dashboardFiles, serviceWorkerBundle } from './bundle.mjs';
import { dataMixedBenchmark } from './data-mixed.mjs';
import { FLOOD_SETTINGS, floodFairnessBenchmark } from './flood-fairness.mjs';
import { httpBenchmarks } from './http.mjs';
import { imageSize } from './image.mjs';
import { inProcessCalls, inProcessPeers, scale } from './in-process.mjs';
import { FULL, option, pinBench, QUICK, unpinned } from './load.mjs';
import { benchmarksReport } from './report.mjs';
import { runtimeBenchmarks } from './runtimes.mjs';
import { selectorBenchmark } from './selector.mjs';
import { sqlLimitsBenchmark } from './sql-limits.mjs';
import { STABILITY_FILE } from './stability-table.mjs';
import { everyRatio, targetsOf } from './targets.mjs';
import { telemetryBenchmark } from './telemetry.mjs';
import { workersBenchmarks } from './workers.mjs';

if (process.argv.includes('--stability')) {
  // `npm run bench -- --stability`: npm has built already; bench/stability.mjs runs the quick runs on that build.
  execFileSync(process.execPath, ['bench/stability.mjs', '--no-build'], { stdio: 'inherit' });
  process.exit(0);
}
const quick = process.argv.includes('--quick');
/** `--json <file>` or `--json=<file>`: where every ratio's median and interval go (bench/stability.mjs reads them). */
const jsonFile = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : option('json', undefined);
/** A full run rewrites BENCHMARKS.md; a quick one only with --write (the stability runs must not overwrite a full run's figures). */
const write = process.argv.includes('--write') || (!quick && !process.argv.includes('--no-write'));
// --quick keeps every measurement but shortens it: fewer and shorter rounds, 10^5 rate-limit keys.
const rounds = quick ? QUICK : FULL;
const settings = {
  rounds: Number(option('rounds', rounds.rounds)),
  seconds: Number(option('seconds', rounds.seconds)),
  warmup: Number(option('warmup', rounds.warmup)),
  ...(quick
    ? { inProcessPasses: 3, inProcessSeconds: 0.5, scaleCalls: 300, maxAddresses: 100_000, mixedPasses: 2, mixedSeconds: 1.5 }
    : { inProcessPasses: 5, inProcessSeconds: 2, scaleCalls: 3_000, maxAddresses: 1_000_000, mixedPasses: 5, mixedSeconds: 3 }),
};
const started = Date.now();
const log = (message) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${message}`);
// The bench (autocannon) on its core from the start; the servers it starts run on the other (bench/load.mjs).
pinBench();

/** The stdout of `node <args>`, free of the bench's core (bench/load.mjs `unpinned`): these scripts measure no pair of servers. */
function node(...args) {
  const [command, ...rest] = unpinned([process.execPath, ...args]);
  return execFileSync(command, rest, { encoding: 'utf8' });
}
/** Runs bench/memory.mjs in a fresh process with --expose-gc, so one measurement cannot skew another. */
const memory = (what, count) => JSON.parse(node('--expose-gc', 'bench/memory.mjs', what, String(count)));
/** The last line of a bench script's stdout, as JSON. */
const lastLine = (output) => JSON.parse(output.trim().split('\n').at(-1));

const m = { quick, settings };
log(
  `HTTP: serve(), the command (access log, --quiet), lean and full Fastify 5, Hono 4 and baselines, ${settings.rounds} rounds × ${settings.seconds} s per server and scenario, taking turns`,
);
m.http = await httpBenchmarks({ ...settings, progress: log });
log('telemetry: a GET on serve() without it, with openTelemetry() and no provider, and with an SDK recording');
m.telemetry = await telemetryBenchmark({ ...settings, progress: log });
log('the sandbox selector: the command before it and now, GET with neither header, plain and with the admin API');
// Twice the rounds: a 2 % goal needs the median of many pairs on a shared machine (bench/selector.mjs).
m.selector = await selectorBenchmark({ ...settings, rounds: settings.rounds * 2, progress: log });
log('Deno and Bun: serve() vs Hono on the same runtime');
m.runtimes = await runtimeBenchmarks({ ...settings, progress: log });
log('Cloudflare Workers on local workerd: createPetStore vs Hono, and petStoreWorker over D1 and Durable Objects');
m.workers = await workersBenchmarks({ ...settings, progress: log });
log('a flood beside a paying caller: 8 banned connections and 2 of a valid key, alone and flooded, in paired rounds');
// Its own rounds of 1 s a side (bench/flood-fairness.mjs): a held 429 takes a second, so its blocks cannot be the method's 0.5 s.
m.floodFairness = await floodFairnessBenchmark({ ...FLOOD_SETTINGS[quick ? 'quick' : 'full'], progress: log });
log('in-process calls');
m.inProcess = await inProcessCalls({ passes: settings.inProcessPasses, seconds: settings.inProcessSeconds });
log('in-process: petstore.fetch(url, init) vs Hono app.request vs a native Response, taking turns in CPU-time rounds');
m.inProcessVs = await inProcessPeers({ rounds: settings.rounds, seconds: settings.seconds });
const NODE24 = 'test/runtimes/node24/node_modules/node/bin/node';
if (existsSync(NODE24)) {
  log('in-process calls on Node 24');
  const args = [settings.inProcessPasses, settings.inProcessSeconds, settings.rounds, settings.seconds].map(String);
  m.inProcess24 = JSON.parse(execFileSync(NODE24, ['bench/in-process-run.mjs', ...args], { encoding: 'utf8' }));
}
log('scale: filtered pages at 10^3, 10^5, 10^6 pets');
m.grown = await scale({ passes: settings.inProcessPasses, calls: settings.scaleCalls });
log('heap per pet and per tracked rate-limit subject (addresses, keys)');
m.petBytes = memory('pets', 1_000_000);
m.keys5 = memory('rate-limit-addresses', 100_000);
m.keys6 = memory('rate-limit-addresses', settings.maxAddresses);
m.apiKeys5 = memory('rate-limit-keys', 100_000);
m.apiKeys6 = memory('rate-limit-keys', settings.maxAddresses);
log('RSS over a 100,000-request invalid-key flood, twice');
m.flood = lastLine(node('bench/flood-rss.mjs'));
log('1,000 createTestPetStore() and 1,000 reset()');
m.testStores = JSON.parse(node('--expose-gc', 'bench/test-store.mjs'));
log('service-worker bundle');
m.bundle = await serviceWorkerBundle();
m.dashboard = await dashboardFiles();
log('the container image: its layers over node:20-bookworm-slim (podman or docker, if present)');
m.image = imageSize();
log('durable stores: PGlite, a throwaway PostgreSQL, Redis');
m.durable = lastLine(node('bench/sql.mjs', ...(quick ? ['--quick'] : [])));
log('the command with --data (PGlite) under a mixed load, and the memory store');
m.dataMixed = await dataMixedBenchmark({ passes: settings.mixedPasses, seconds: settings.mixedSeconds });
log('SQL limit store: takes with 10^2 and 10^5 callers a day, on PGlite and PostgreSQL');
m.sqlLimits = await sqlLimitsBenchmark({ quick });
// The stability table of the last `node bench/stability.mjs`, for the full run's report.
m.stability = existsSync(STABILITY_FILE) ? JSON.parse(readFileSync(STABILITY_FILE, 'utf8')) : undefined;
m.minutes = (Date.now() - started) / 60_000;

const targets = targetsOf(m);
const markdown = benchmarksReport(m, targets);
console.log(markdown);
if (jsonFile) {
  writeFileSync(
    jsonFile,
    `${JSON.stringify({ date: new Date().toISOString(), quick, settings, minutes: m.minutes, ratios: everyRatio(m, targets) }, null, 2)}\n`,
  );
  log(`every ratio written to ${jsonFile}`);
}
if (write) {
  writeFileSync('BENCHMARKS.md', markdown);
  log('BENCHMARKS.md written');
} else log('BENCHMARKS.md left as it was (a quick run: --write rewrites it)');
