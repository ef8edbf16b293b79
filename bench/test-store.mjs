// `node --expose-gc bench/test-store.mjs`: 1,000 createTestPetStore() and 1,000 reset() on the built package, each timed; prints JSON.
import { createTestPetStore } from 'petstore-service/testing';

const COUNT = 1_000;

/** Mean, p50, p99 (nearest rank) and max of durations in ms. */
function summary(durations) {
  const sorted = [...durations].sort((a, b) => a - b);
  const rank = (p) => sorted[Math.ceil((p / 100) * sorted.length) - 1];
  return { mean: durations.reduce((a, b) => a + b, 0) / durations.length, p50: rank(50), p99: rank(99), max: sorted.at(-1) };
}

/** Live heap after a full GC, when run with --expose-gc (bytes), else undefined. */
const liveHeap = () => (globalThis.gc ? (globalThis.gc(), globalThis.gc(), process.memoryUsage().heapUsed) : undefined);

// Cold, as a test run meets it: no warm-up, and every store stays alive, as in a suite that keeps them.
const heapBefore = liveHeap();
const stores = [];
const creates = [];
for (let i = 0; i < COUNT; i++) {
  const started = performance.now();
  stores.push(createTestPetStore());
  creates.push(performance.now() - started);
}
const heapAfter = liveHeap();

// Each reset follows a test's worth of state: a pet, and one request through the limits and the log.
const petstore = stores[0];
const request = () => petstore.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${petstore.keys.free}` } });
const resets = [];
for (let i = 0; i < COUNT; i++) {
  await petstore.seed([{ name: 'Rex', categoryId: 1 }]);
  await (await request()).text();
  const started = performance.now();
  await petstore.reset();
  resets.push(performance.now() - started);
}
if ((await petstore.pets()).length !== 0 || petstore.requests.length !== 0) throw new Error('reset() left state behind');

const bytesPerStore = heapBefore === undefined ? undefined : (heapAfter - heapBefore) / COUNT;
console.log(JSON.stringify({ count: COUNT, create: summary(creates), reset: summary(resets), bytesPerStore, stores: stores.length }));
