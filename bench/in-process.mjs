// In-process benchmarks: petstore.fetch in a loop, and filtered pages as the store grows.
import { createHistogram } from 'node:perf_hooks';
import { createPetStore } from 'petstore-service';
import { memoryPetStorage } from 'petstore-service/storage';

const KEY = 'bench-key';
const apiKeys = { [KEY]: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } };
const headers = { authorization: `Bearer ${KEY}` };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** Calls per second of `await petstore.fetch(new Request(...))` for GET /v1/pets (20 pets). */
export async function inProcessCalls({ passes, seconds }) {
  const storage = memoryPetStorage();
  for (let i = 0; i < 20; i++) await storage.create({ name: `pet ${i}`, categoryId: i, status: 'available' });
  const petstore = createPetStore({ apiKeys, storage });
  const once = async () => (await petstore.fetch(new Request('http://bench.local/v1/pets', { headers }))).text();
  for (let i = 0; i < 3_000; i++) await once(); // warm-up
  const rates = [];
  for (let pass = 0; pass < passes; pass++) {
    let calls = 0;
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      for (let i = 0; i < 100; i++) await once();
      calls += 100;
    }
    rates.push(calls / seconds);
  }
  return { callsPerSecond: median(rates), rates };
}

/** A store with `count` pets, one in 1,000 sold. */
async function storeOf(count) {
  const storage = memoryPetStorage();
  for (let i = 1; i <= count; i++) await storage.create({ name: `pet ${i}`, categoryId: i % 7, status: i % 1000 === 0 ? 'sold' : 'available' });
  return createPetStore({ apiKeys, storage });
}

/**
 * p50/p99 (µs) of `GET /v1/pets?status=sold&limit=20` through the handler with 10^3, 10^5 and
 * 10^6 stored pets, sizes alternating within each pass; and create throughput.
 */
export async function scale({ passes, calls }) {
  const sizes = [1_000, 100_000, 1_000_000];
  const stores = {};
  let createRate = 0;
  for (const size of sizes) {
    const started = performance.now();
    stores[size] = await storeOf(size);
    if (size === 1_000_000) createRate = size / ((performance.now() - started) / 1000);
  }
  const histograms = Object.fromEntries(sizes.map((size) => [size, createHistogram()]));
  const request = () => new Request('http://bench.local/v1/pets?status=sold&limit=20', { headers });
  for (const size of sizes) for (let i = 0; i < 1_000; i++) await (await stores[size].fetch(request())).text();
  for (let pass = 0; pass < passes; pass++) {
    for (const size of sizes) {
      for (let i = 0; i < calls; i++) {
        const started = process.hrtime.bigint();
        await (await stores[size].fetch(request())).text();
        histograms[size].record(Math.max(1, Number((process.hrtime.bigint() - started) / 1000n)));
      }
    }
  }
  // Creates through the handler, the way a client makes them.
  const petstore = createPetStore({ apiKeys });
  const body = JSON.stringify({ name: 'Bench', categoryId: 1, status: 'sold' });
  const post = () =>
    petstore.fetch(new Request('http://bench.local/v1/pets', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body }));
  for (let i = 0; i < 2_000; i++) await post();
  const started = performance.now();
  const creates = 10_000;
  for (let i = 0; i < creates; i++) await post();
  const handlerCreates = creates / ((performance.now() - started) / 1000);
  return {
    latency: Object.fromEntries(sizes.map((size) => [size, { p50: histograms[size].percentile(50), p99: histograms[size].percentile(99) }])),
    storageCreatesPerSecond: createRate,
    handlerCreatesPerSecond: handlerCreates,
  };
}
