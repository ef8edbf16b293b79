// BENCHMARKS.md's targets, one row per goal, from what bench/index.mjs measured; and every ratio of a run by name, for --json and the stability table.
import { dataMixedTargets } from './data-mixed.mjs';
import { floodFairnessTargets } from './flood-fairness.mjs';
import { floodTargets } from './flood-rss.mjs';
import { httpTargets, PEERS } from './http.mjs';
import { inProcessTargets } from './in-process.mjs';
import { f } from './load.mjs';
import { SCENARIOS } from './peers/same-work.mjs';
import { runtimeTargets } from './runtimes.mjs';
import { selectorTargets } from './selector.mjs';
import { sqlLimitsTargets } from './sql-limits.mjs';
import { telemetryTargets } from './telemetry.mjs';
import { workersTargets } from './workers.mjs';

/** The dashboard's script and styles through gzip -9, which issue #48 bounds at 30 kB. */
export const dashboardGzip = (dashboard) => dashboard['dashboard.js'].gzipBytes + dashboard['dashboard.css'].gzipBytes;

/**
 * Every target row, `[name, goal, measured, met, ratios?]`, in the order BENCHMARKS.md lists them.
 * A ratio's row is met only when its whole 95 % interval is on the goal's side (bench/stats.mjs `meets`).
 *
 * @example
 * for (const [name, goal, measured, met] of targetsOf(measured)) console.log(name, goal, measured, met);
 */
export function targetsOf(m) {
  const { inProcess, inProcess24, grown, petBytes, keys5, keys6, apiKeys5, apiKeys6, testStores, bundle, settings } = m;
  const dashboard = dashboardGzip(m.dashboard);
  const p50s = (size) => grown.latency[1_000_000].p50 / grown.latency[size].p50;
  return [
    ...httpTargets(m.http),
    ...telemetryTargets(m.telemetry),
    ...selectorTargets(m.selector),
    ...runtimeTargets(m.runtimes),
    ...workersTargets(m.workers),
    ...floodFairnessTargets(m.floodFairness),
    ['In-process GET list calls per second', '≥ 30,000', f(inProcess.callsPerSecond), inProcess.callsPerSecond >= 30_000],
    ...inProcessTargets('', m.inProcessVs),
    ...(inProcess24 ? inProcessTargets(', Node 24', inProcess24.peers) : []),
    ...(inProcess24
      ? [['In-process GET list calls per second, Node 24', '≥ 30,000', f(inProcess24.callsPerSecond), inProcess24.callsPerSecond >= 30_000]]
      : []),
    ['Filtered list p50 at 10^6 pets vs 10^3', '≤ 1.5×', `${f(p50s(1_000), 2)}×`, p50s(1_000) <= 1.5],
    ['Filtered list p50 at 10^6 pets vs 10^5 (both a full 20-pet page)', '≤ 1.5× (our check)', `${f(p50s(100_000), 2)}×`, p50s(100_000) <= 1.5],
    ['Heap bytes per stored pet (10^6 pets)', '≤ 150', f(petBytes.bytesPerItem), petBytes.bytesPerItem <= 150],
    ...[
      ["an anonymous caller's address", keys5, keys6, 'addresses'],
      ['a key', apiKeys5, apiKeys6, 'keys'],
    ].map(([what, at5, at6, unit]) => [
      `Heap bytes per tracked rate-limit subject, ${what} (10^5 / ${f(settings.maxAddresses)} ${unit})`,
      '≤ 300',
      `${f(at5.bytesPerItem)} / ${f(at6.bytesPerItem)}`,
      Math.max(at5.bytesPerItem, at6.bytesPerItem) <= 300,
    ]),
    ...floodTargets(m.flood),
    ...['create', 'reset'].map((step) => [
      `\`${step === 'create' ? 'createTestPetStore()' : 'reset()'}\`, mean of ${f(testStores.count)} (p99)`,
      '≤ 0.5 ms',
      `${f(testStores[step].mean, 3)} ms (p99 ${f(testStores[step].p99, 2)})`,
      testStores[step].mean <= 0.5,
    ]),
    ...dataMixedTargets(m.dataMixed),
    ...sqlLimitsTargets(m.sqlLimits),
    ['Service worker `init --worker-only` writes, gzip -9', '≤ 40 KB', `${f(bundle.gzipBytes / 1024, 1)} KB`, bundle.gzipBytes <= 40 * 1024],
    ['Dashboard at /__admin/: script and styles, gzip -9', '≤ 30 KB', `${f(dashboard / 1024, 1)} KB`, dashboard <= 30 * 1024],
  ];
}

/**
 * Every ratio of a run by name, `{ [name]: { median, low, high } }`: the targets' (their fifth
 * element) and the HTTP table's (each server ÷ lean Fastify and × serve(), and CPU ÷ the floor's).
 *
 * @example
 * const ratios = everyRatio(measured, targetsOf(measured)); // { 'GET req/s, … ÷ lean Fastify': { median: 0.91, low: 0.85, high: 0.97 }, … }
 */
export function everyRatio(m, targets) {
  const ratios = Object.assign({}, ...targets.map((row) => row[4] ?? {}));
  for (const [scenario, byServer] of Object.entries(m.http.peers)) {
    for (const [kind, r] of Object.entries(byServer)) {
      const row = `HTTP table, ${SCENARIOS[scenario].short}, ${PEERS[kind]}`;
      if (kind !== 'fastify-lean') ratios[`${row} ÷ lean Fastify (req/s)`] = r.overLean;
      if (kind !== 'petstore') ratios[`${row} × serve() (req/s)`] = r.ratio;
      if (r.overFloor) ratios[`${row}: CPU per answer ÷ the floor's`] = r.overFloor;
    }
  }
  return ratios;
}
