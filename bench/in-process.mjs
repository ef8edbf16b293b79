// In-process benchmarks: petstore.fetch in a loop, ours against Hono and a native Response in CPU-time rounds, and filtered pages as the store grows.
import { createHistogram } from 'node:perf_hooks';
import { createPetStore } from 'petstore-service';
import { memoryLimitStore, memoryPetStorage } from 'petstore-service/storage';
import { createApp } from './peers/hono-app.mjs';
import { medianInterval, shown, targetRow } from './stats.mjs';

const KEY = 'bench-key';
const apiKeys = { [KEY]: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } };
const headers = { authorization: `Bearer ${KEY}` };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const f = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

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

/** What a unit test pays per call, three ways, GET /v1/pets and `.json()` of the 20-pet page (of 100, `Link: rel="next"`). */
export const IN_PROCESS_CASES = {
  petstore: '`await (await petstore.fetch(url, init)).json()`',
  hono: 'Hono 4 `app.request(url, init)`, the same work (bench/peers/hono-app.mjs), `.json()`',
  floor: 'The floor: `new Response(page, { headers })` with the same body and headers, `.json()`',
};

/**
 * Calls per CPU-second of each of {@link IN_PROCESS_CASES}, taking turns within each round, each
 * round `seconds` of this process's CPU (user + system: a round preempted by the machine's other
 * work is not counted short). Ours and Hono's app are made from equal stores, as the HTTP peers
 * are; the floor builds one native Response with our answer's body and headers, and reads it.
 * Resolves to each case's median rate and per-round rates, and `oursOver`: ours ÷ the case per
 * round, median and 95 % bootstrap interval.
 */
export async function inProcessPeers({ rounds, seconds }) {
  const sameWork = async () => {
    const storage = memoryPetStorage();
    for (let i = 1; i <= 100; i++) await storage.create({ name: `pet ${i}`, categoryId: i % 5, status: 'available' });
    return { storage, limitStore: memoryLimitStore(), apiKeys };
  };
  const url = 'http://localhost/v1/pets';
  const init = { headers };
  const petstore = createPetStore(await sameWork());
  const app = createApp(await sameWork());
  const sample = await petstore.fetch(url, init);
  const page = await sample.text();
  const pageHeaders = Object.fromEntries(sample.headers);
  const honoPage = await (await app.request(url, init)).text();
  if (honoPage !== page) throw new Error(`Hono's page differs from ours:\n${honoPage.slice(0, 200)}\n${page.slice(0, 200)}`);
  const calls = {
    petstore: async () => (await petstore.fetch(url, init)).json(),
    hono: async () => (await app.request(url, init)).json(),
    floor: () => new Response(page, { headers: pageHeaders }).json(),
  };
  const names = Object.keys(calls);
  for (const name of names) for (let i = 0; i < 5_000; i++) await calls[name]();
  const rates = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    // The order rotates, as the HTTP rounds' does.
    for (const name of names.map((_, i) => names[(i + round) % names.length])) {
      const started = process.cpuUsage();
      let done = 0;
      let used = 0;
      while (used < seconds * 1e6) {
        for (let i = 0; i < 100; i++) await calls[name]();
        done += 100;
        const { user, system } = process.cpuUsage(started);
        used = user + system;
      }
      rates[name].push(done / (used / 1e6));
    }
  }
  const ratios = Object.fromEntries(names.map((name) => [name, rates.petstore.map((rate, i) => rate / rates[name][i])]));
  return Object.fromEntries(names.map((name) => [name, { rate: median(rates[name]), rates: rates[name], oursOver: medianInterval(ratios[name]) }]));
}

/** The in-process goals of issue 28: ours ÷ Hono's app.request and ÷ the native-Response floor, per round (target rows, intervals). */
export function inProcessTargets(where, peers) {
  return [
    targetRow(`In process, \`petstore.fetch(url, init)\` ÷ Hono \`app.request\`, same work${where}`, 1.5, peers.hono.oursOver),
    targetRow(`In process, \`petstore.fetch(url, init)\` ÷ a native Response with the same body and headers${where}`, 0.8, peers.floor.oursOver),
  ];
}

/** The in-process peers' rows: calls per CPU-second, and ours ÷ each (median of the per-round ratios, interval). */
export const inProcessPeerRows = (where, peers) =>
  Object.entries(IN_PROCESS_CASES).map(
    ([name, label]) =>
      `| ${label}${where} | ${f(peers[name].rate)} calls/s | ${name === 'petstore' ? '1×' : shown(peers[name].oursOver)} | ${f(Math.min(...peers[name].rates))}–${f(Math.max(...peers[name].rates))} |`,
  );

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
