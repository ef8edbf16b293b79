// npm run bench [-- --quick]: every benchmark, a table on stdout, and BENCHMARKS.md rewritten.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { serviceWorkerBundle } from './bundle.mjs';
import { floodSection, floodTargets } from './flood-rss.mjs';
import { baselineRows, httpBenchmarks, PEERS, peerRows, TAIL_GOAL } from './http.mjs';
import { inProcessCalls, scale } from './in-process.mjs';

const quick = process.argv.includes('--quick');
// --quick keeps every measurement but shortens it: fewer and shorter passes, 10^5 rate-limit keys.
const settings = quick
  ? { passes: 2, seconds: 1.5, inProcessPasses: 3, inProcessSeconds: 0.5, scaleCalls: 300, maxAddresses: 100_000 }
  : { passes: 5, seconds: 3, inProcessPasses: 5, inProcessSeconds: 2, scaleCalls: 3_000, maxAddresses: 1_000_000 };
const started = Date.now();
const log = (message) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${message}`);

/** Runs bench/memory.mjs in a fresh process with --expose-gc, so one measurement cannot skew another. */
function memory(what, count) {
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', 'bench/memory.mjs', what, String(count)], { encoding: 'utf8' }));
}

log(`HTTP: ours, Fastify 5, Hono 4 and two baselines, ${settings.passes} passes × ${settings.seconds} s per scenario, taking turns`);
const http = await httpBenchmarks(settings);
log('in-process calls');
const inProcess = await inProcessCalls({ passes: settings.inProcessPasses, seconds: settings.inProcessSeconds });
const NODE24 = 'test/runtimes/node24/node_modules/node/bin/node';
let inProcess24;
if (existsSync(NODE24)) {
  log('in-process calls on Node 24');
  const args = ['bench/in-process-run.mjs', String(settings.inProcessPasses), String(settings.inProcessSeconds)];
  inProcess24 = JSON.parse(execFileSync(NODE24, args, { encoding: 'utf8' }));
}
log('scale: filtered pages at 10^3, 10^5, 10^6 pets');
const grown = await scale({ passes: settings.inProcessPasses, calls: settings.scaleCalls });
log('heap per pet and per tracked rate-limit subject (addresses, keys)');
const petBytes = memory('pets', 1_000_000);
const keys5 = memory('rate-limit-addresses', 100_000);
const keys6 = memory('rate-limit-addresses', settings.maxAddresses);
const apiKeys5 = memory('rate-limit-keys', 100_000);
const apiKeys6 = memory('rate-limit-keys', settings.maxAddresses);
log('RSS over a 100,000-request invalid-key flood, twice');
const flood = JSON.parse(execFileSync(process.execPath, ['bench/flood-rss.mjs'], { encoding: 'utf8' }).trim().split('\n').at(-1));
log('1,000 createTestPetStore() and 1,000 reset()');
const testStores = JSON.parse(execFileSync(process.execPath, ['--expose-gc', 'bench/test-store.mjs'], { encoding: 'utf8' }));
log('service-worker bundle');
const bundle = await serviceWorkerBundle();
log('durable stores: PGlite, a throwaway PostgreSQL, Redis');
const durable = JSON.parse(execFileSync(process.execPath, ['bench/sql.mjs', ...(quick ? ['--quick'] : [])], { encoding: 'utf8' }).trim().split('\n').at(-1));

const get = http.peers.list.petstore;
const bare = http.baselines['GET — bare @whatwg-node/server adapter'];
const raw = http.baselines['GET — raw node:http'];
/** Ours ÷ the peer's req/s in each scenario (median of the per-pass ratios), and whether each is at least 1. */
const versus = (kind) => {
  const ratios = Object.values(http.peers).map((byServer) => byServer[kind].oursOver);
  return [ratios.map((r) => `${f(r, 2)}×`).join(' · '), ratios.every((r) => r >= 1)];
};
const ourTails = Object.values(http.peers).map(({ petstore }) => petstore.p99 / petstore.p50);
const ratio = (a, b) => a / b;
const f = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok) => (ok ? '✅ met' : '❌ missed');

const targets = [
  ['GET list vs bare @whatwg-node adapter', '≥ 0.9×', `${f(ratio(get.rps, bare.rps), 2)}×`, ratio(get.rps, bare.rps) >= 0.9],
  ['GET list vs raw node:http', '≥ 0.6×', `${f(ratio(get.rps, raw.rps), 2)}×`, ratio(get.rps, raw.rps) >= 0.6],
  ...['fastify', 'hono'].map((kind) => [`Same work, req/s ours ÷ ${PEERS[kind]} (GET · POST · 401 · 429)`, '≥ 1×', ...versus(kind)]),
  [
    'HTTP p99 ÷ p50, ours (GET · POST · 401 · 429)',
    `≤ ${TAIL_GOAL}× each`,
    ourTails.map((t) => `${f(t, 2)}×`).join(' · '),
    ourTails.every((t) => t <= TAIL_GOAL),
  ],
  ['In-process GET list calls per second', '≥ 30,000', f(inProcess.callsPerSecond), inProcess.callsPerSecond >= 30_000],
  ...(inProcess24
    ? [['In-process GET list calls per second, Node 24', '≥ 30,000', f(inProcess24.callsPerSecond), inProcess24.callsPerSecond >= 30_000]]
    : []),
  [
    'Filtered list p50 at 10^6 pets vs 10^3',
    '≤ 1.5×',
    `${f(grown.latency[1_000_000].p50 / grown.latency[1_000].p50, 2)}×`,
    grown.latency[1_000_000].p50 / grown.latency[1_000].p50 <= 1.5,
  ],
  [
    'Filtered list p50 at 10^6 pets vs 10^5 (both a full 20-pet page)',
    '≤ 1.5× (our check)',
    `${f(grown.latency[1_000_000].p50 / grown.latency[100_000].p50, 2)}×`,
    grown.latency[1_000_000].p50 / grown.latency[100_000].p50 <= 1.5,
  ],
  ['Heap bytes per stored pet (10^6 pets)', '≤ 150', f(petBytes.bytesPerItem), petBytes.bytesPerItem <= 150],
  ...[
    ['an anonymous caller\'s address', keys5, keys6, 'addresses'],
    ['a key', apiKeys5, apiKeys6, 'keys'],
  ].map(([what, at5, at6, unit]) => [
    `Heap bytes per tracked rate-limit subject, ${what} (10^5 / ${f(settings.maxAddresses)} ${unit})`,
    '≤ 300',
    `${f(at5.bytesPerItem)} / ${f(at6.bytesPerItem)}`,
    Math.max(at5.bytesPerItem, at6.bytesPerItem) <= 300,
  ]),
  ...floodTargets(flood),
  ...['create', 'reset'].map((step) => [
    `\`${step === 'create' ? 'createTestPetStore()' : 'reset()'}\`, mean of ${f(testStores.count)} (p99)`,
    '≤ 0.5 ms',
    `${f(testStores[step].mean, 3)} ms (p99 ${f(testStores[step].p99, 2)})`,
    testStores[step].mean <= 0.5,
  ]),
  ['Service-worker bundle, min+gzip', '≤ 40 KB', `${f(bundle.gzipBytes / 1024, 1)} KB`, bundle.gzipBytes <= 40 * 1024],
];

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const report = `# Benchmarks

Measured by \`npm run bench${quick ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 10)}:
${cpus().length} × ${cpu}, ${f(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}, ${process.platform}/${process.arch}.
Machine noise is high (2 shared cores; the load generator and the server share them), so every
HTTP figure is the median of ${settings.passes} passes of ${settings.seconds} s, scenarios alternating within each pass, and
targets are ratios between scenarios of the same run. Load: autocannon, 10 connections, from the
bench process against a server in its own process on loopback. Latency in microseconds.

## Targets

| Target | Goal | Measured | |
| --- | --- | --- | --- |
${targets.map(([name, goal, value, ok]) => `| ${name} | ${goal} | ${value} | ${verdict(ok)} |`).join('\n')}

## HTTP (Node adapter, 20 pets, enterprise key)

| Scenario | req/s (median) | p50 µs | p99 µs | req/s per pass |
| --- | --- | --- | --- | --- |
${baselineRows(http).join('\n')}

The bare adapter returns a constant JSON string (the same 20-pet page); raw node:http compares the
key as a string and returns that string. petstore-service authenticates (SHA-256 of the key,
@noble/hashes), counts both rate-limit windows, reads storage, serializes the pets and adds 5 quota
headers and the \`Link\` to the next page.

## Same work: Fastify 5 and Hono 4

The Pet Store's two operations written on Fastify 5 and on Hono 4 (with @hono/node-server) in
\`bench/peers/\`, each server in its own process, over the same stores (\`memoryPetStorage\`,
100 pets, and \`memoryLimitStore\` from this package). Scenarios: the first page of 20 pets with an
enterprise key (\`Link: rel="next"\`); creating a valid pet; a wrong key (401), sent from 50,000
addresses in turn (\`X-Real-IP\`, our \`clientAddress\` option) so no address reaches the
anonymous limit; and an address banned after a flood, sending no key (429 \`key_banned\`), our
cheapest refusal. req/s and latencies are medians of ${settings.passes} passes of ${settings.seconds} s, the servers taking turns
within each scenario in an order that rotates each pass; **× ours** is the median of the per-pass
ratios of the row's req/s to ours.

${peerRows(http).join('\n')}

**How the peers are kept honest.** Before anything is measured, the bench bans the flooding
address on each server, then sends the three the same requests in the same order and stops
(nothing measured) unless every peer's answer to each scenario equals ours: status, every header
name and value (only the date, resets, \`t=\` and seconds left masked, and the \`; charset=utf-8\`
Fastify appends to every JSON type), and the body (only the new pet's id and the ban's seconds
masked); then ${http.sameWork.probes} probes (pages and cursors, bad limits and statuses, a missing key, an unknown
path, invalid pets, bad JSON, \`__proto__\`, a wrong media type, 70 KB bodies with and without a
length, idempotency keys) must agree on status, header names and error code; while measuring,
every answer must have the scenario's status. The rules the peers share (bench/peers/rules.mjs)
follow ours: key digests in a Map (SHA-256 by node:crypto, the idiom on Node, where ours is
@noble/hashes for every runtime), the minute and day windows and ban over the same store, the same
five quota headers and \`Retry-After\`, cursors, \`Idempotency-Key\`. Each framework does the rest
its own way: Fastify an \`onRequest\` hook, JSON-schema routes validated by its Ajv (no type
coercion) and serialized by fast-json-stringify; Hono a middleware, \`hono/validator\` with
valibot, \`c.json\`. Hono's body limit checks a declared \`Content-Length\` itself and leaves
\`hono/body-limit\` to chunked bodies: that middleware reads \`c.req.raw.body\`, which makes
@hono/node-server build a whole Request and cost Hono about 2.7× on POST here. What the peers do
not do: the rest of the API (\`GET /pets/{id}\`, HEAD, OPTIONS, CORS, 405s, the OpenAPI document)
and the 32-level nesting limit on bodies.

## In-process

| Measurement | Result |
| --- | --- |
| \`await petstore.fetch(new Request(…))\`, GET /v1/pets (20 pets) | ${f(inProcess.callsPerSecond)} calls/s (median of ${inProcess.rates.length}: ${inProcess.rates.map((r) => f(r)).join(' · ')}) |
${inProcess24 ? `| The same on Node 24 (npm package \`node@24\`) | ${f(inProcess24.callsPerSecond)} calls/s (median of ${inProcess24.rates.length}: ${inProcess24.rates.map((r) => f(r)).join(' · ')}) |` : '| (Node 24 not installed: run npm test once to fetch it) | |'}
| POST /v1/pets through the handler | ${f(grown.handlerCreatesPerSecond)} creates/s |
| \`memoryPetStorage().create\` (filling 10^6 pets) | ${f(grown.storageCreatesPerSecond)} creates/s |

## Scale: \`GET /v1/pets?status=sold&limit=20\`, one pet in 1,000 sold

| Stored pets | p50 µs | p99 µs |
| --- | --- | --- |
${Object.entries(grown.latency).map(([size, l]) => `| ${f(Number(size))} | ${f(l.p50)} | ${f(l.p99)} |`).join('\n')}

## Memory

| Measurement | Result |
| --- | --- |
| Heap per stored pet, 10^6 pets | ${f(petBytes.bytesPerItem)} bytes |
${[keys5, keys6].map((m) => `| Heap per tracked rate-limit subject, ${f(m.maxAddresses)} anonymous callers' addresses | ${f(m.bytesPerItem)} bytes (addresses held after 10% more: ${f(m.addresses)}, maxAddresses ${f(m.maxAddresses)}) |`).join('\n')}
${[apiKeys5, apiKeys6].map((m) => `| Heap per tracked rate-limit subject, ${f(m.maxAddresses)} keys | ${f(m.bytesPerItem)} bytes (after 10% more keys, all ${f(m.keys)} held: keys are never pushed out) |`).join('\n')}

A tracked subject is one \`memoryLimitStore\` entry: its minute and day counters and its subject
string (\`address:<IPv4>\` or \`key:<128-bit digest>\`), each counted once; \`node --expose-gc bench/memory.mjs\`.

${floodSection(flood)}

## Test stores (\`petstore-service/testing\`)

${f(testStores.count)} \`createTestPetStore()\` in a fresh process, all kept alive, then ${f(testStores.count)} \`reset()\` of one store,
each after a seeded pet and one request; the built package, no warm-up. Milliseconds per call.

| Call | mean | p50 | p99 | max |
| --- | --- | --- | --- | --- |
${['create', 'reset'].map((step) => `| \`${step === 'create' ? 'createTestPetStore()' : 'reset()'}\` | ${['mean', 'p50', 'p99', 'max'].map((k) => f(testStores[step][k], 3)).join(' | ')} |`).join('\n')}

Heap held per store: ${f(testStores.bytesPerStore / 1024, 1)} KiB. The memory limit store's lru-cache now grows with the addresses
it holds; bounded by \`max\`, it allocated all 100,000 slots up front: 1.5 MiB of heap (plus 1.2 MB of typed
arrays) and 27–40 ms per store and per reset on this machine, 9 ms in the issue that found it. The slowest is the first
call (it loads @whatwg-node/server's Node ponyfill) or a collection or preemption on a busy machine.

## Durable stores (\`petstore-service/sql\`, at the storage, ${f(durable.pets)} pets)

| Measurement | PGlite (in memory) | PostgreSQL 15 (local, fsync off) |
| --- | --- | --- |
| \`create\`, one at a time | ${f(durable.pglite.createsSequential)} /s | ${f(durable.postgres.createsSequential)} /s |
| \`create\`, 16 at a time | ${f(durable.pglite.createsConcurrent)} /s | ${f(durable.postgres.createsConcurrent)} /s |
| First page (21 pets), p50 | ${f(durable.pglite.firstPage)} µs | ${f(durable.postgres.firstPage)} µs |
| Filtered page (\`status=sold\`, one in 1,000, after id 50,000), p50 | ${f(durable.pglite.filteredPage)} µs | ${f(durable.postgres.filteredPage)} µs |
| Rate-limit \`take\`, 16 at a time | ${f(durable.pglite.takes)} /s | ${f(durable.postgres.takes)} /s |
| Rare status (\`status=pending\`, the 42 newest), first page, p50 at 10^3 pets | ${f(durable.pglite.rare.thousand)} µs | ${f(durable.postgres.rare.thousand)} µs |
| The same at 10^6 pets | ${f(durable.pglite.rare.million)} µs | ${f(durable.postgres.rare.million)} µs |

The same \`take\` on Redis: ${f(durable.redisTakes)} /s; in memory: ${f(durable.memoryTakes)} /s. Creates on
PostgreSQL commit one at a time under the id row's lock (the price of ids that never appear behind
a cursor): 16 at a time gave ${f(durable.postgres.createsConcurrent / durable.postgres.createsSequential, 1)}× the one-at-a-time rate, the overlap of
everything but the commit, not 16×. Limits are exact on PostgreSQL too, but Redis took
${f(durable.redisTakes / durable.postgres.takes, 1)}× as many per second here: with many instances under load, keep pets in PostgreSQL and
limits in Redis.

The rare-status page costs the same at 10^6 pets as at 10^3: the \`(status, id)\` index finds the
42 directly. Without it (dropped by hand, once, on this machine) the same page at 10^6 took 180 ms
on PGlite and 55 ms on PostgreSQL: every id from the start is walked to find them.

## Service-worker bundle

\`petstore-service/service-worker\` with all its dependencies (core, valibot, @valibot/to-json-schema,
@whatwg-node/server, lru-cache, idb-keyval), bundled and minified by esbuild for the browser:
${f(bundle.minBytes)} bytes minified, **${f(bundle.gzipBytes)} bytes min+gzip**.
`;

const findings = `
## Findings (profile of the hot path, and why targets are missed)

Profiled once with \`node --cpu-prof bench/profile.mjs\` (the in-process GET loop) and
\`node --cpu-prof bench/http-server.mjs petstore <key>\` under autocannon;
\`node bench/top-functions.mjs <profile>\` lists the self time.

- **Fixed: key hashing went through the thread pool.** Web Crypto's \`crypto.subtle.digest\` is
  asynchronous; on Node each call was a libuv thread-pool round trip, and the first profile was
  50% idle: 4,900 in-process calls/s, 5,500 HTTP req/s. Hashing with @noble/hashes' synchronous
  SHA-256 (same code in every runtime) took the loop to ~27,000 calls/s on Node 20.
- **Changed: a fetch caller gets the runtime's own \`Response\`; node:http keeps the ponyfill.**
  Hosts read what \`petstore.fetch\` returns as their own (Hono on Node failed HEAD with the
  ponyfill; tests expect \`instanceof Response\`), so only where @whatwg-node writes the answer to a
  node:http socket itself does \`render\` use its ponyfill. The price is in-process on Node: a
  20-pet page built and read as Node 20's undici \`Response\` costs ~21 µs against ~0.5 µs for
  the ponyfill (\`node bench/micro.mjs\`, "+ text()" rows), which took \`petstore.fetch(new Request(…))\` from ~33,000 to ~19,000 calls/s on
  Node 20 (and ~83,000 to ~41,000 on Node 24); the HTTP numbers did not move.
- **Fixed: 20 pets serialized per request.** JSON.stringify of 20 small objects costs ~7 µs on
  Node 20; list pages now reuse each stored pet's serialization (pets are immutable), ~1 µs.
- **Fixed: rate-limit memory.** An entry was an object holding two arrays (~490 bytes a key);
  it is one flat array of numbers sized once, and a key's subject is one flat string: ~230.
- **Missed: GET vs the bare adapter (≥ 0.9×) and vs raw node:http (≥ 0.6×).** The baselines do
  no work: the bare adapter's whole request costs ~27 µs of main-thread CPU here, so 0.9× would
  leave 3 µs for authentication, two rate-limit windows, validation, storage, serialization and
  seven headers. Measured per request on Node 20 by \`node bench/micro.mjs\` (src/, bundled):
  SHA-256 of the key ~4.7 µs, rate limiter ~2.7 µs, page rendering ~1–3 µs, URL and query
  ~1 µs; \`process.cpuUsage\` under wrk showed ~106 µs CPU per request for ours against ~65 µs
  for the bare adapter (measured before the direct node:http path below). Meeting the ratio would
  mean dropping features the spec requires (per-key hashing, both quota windows, the headers), so
  the target stands as missed.
- **Fixed: the fetch bridge under node:http.** A plain store (no admin API, no hooks) now answers
  node:http with the same replies written by \`writeHead\` and one \`end\` (\`src/node-path.ts\`), not
  through @whatwg-node's Request/Response objects: GET went from ~8,800-10,400 to ~12,000-14,000
  req/s in the same kind of run (0.19-0.27x of the bare adapter to 0.30x).
- **Fixed: object spread on the request path (Node 20).** On V8 11.3 a spread followed by more
  keys made a new hidden class on every run, so ~580 B of each request survived a minor GC and V8
  doubled its young generation under a flood; \`Object.assign\` and fixed literals left ~22 B.
- **Fixed: the same work as Fastify 5, GET and rejections (was GET 0.61x, POST 0.45x, 401 0.66x,
  429 0.81x).** Measured one change at a time with \`node bench/cpu-per-request.mjs\` (server CPU per
  answer, the servers alternating in rounds) and a bundled loop of \`answerNode\` over the source
  (GET 24 to 10 µs, POST 60 to 13 µs, 401 28 to 10 µs a call):
  an \`ApiError\` no longer captures a stack (~5 µs per 401 or 429; it is an answer, not a bug);
  a key is looked up as sent in a Map of the configured keys, with no SHA-256 per request (~4 µs);
  the two 401s are made once; the node:http body is read without a web ReadableStream (~10 µs of
  POST); JSON bodies are parsed without a reviver unless the text could spell a forbidden key;
  a plain origin-form target is split without \`new URL\`; routes are split once; a plan's
  windows are made once a minute; a canonical IPv4 address skips ipaddr parsing; the direct
  path's request view is a class (an object literal with getters had a hidden class per request).
- **Fixed: POST against Fastify (was 0.80x), and every row with it.** The bundled loop could not
  show the cost, since it drives \`answerNode\` with a fake req/res: the cost was in node:http's own
  objects. Found with \`perf record\` on each server (per-request samples by symbol, kernel
  included) and copies of the built package differing in one change, alternating in rounds.
  \`serve()\` put a 'close' listener on every response twice (graceful close's in-flight set,
  client-errors' pipelining count): together about a fifth of each request's server CPU. Graceful
  close now remembers each connection's latest response, and client-errors drops closed responses
  when it looks, listening for 'close' only on a failed connection. A Content-Length body that
  arrived with its headers is taken in one \`read()\` instead of the stream's resume, 'data' and 'end'
  ticks (~9% of a POST). Smaller: try/catch instead of \`.catch()\` in the answer step (five
  promises fewer per POST), the Idempotency-Key schema run only when one is sent, \`application/json\`
  matched without splitting, two quota windows ordered without \`Array#sort\`, repeated singleton
  fields found without a Set. A trap measured on the way: in V8 11.3 (Node 20), adding a field to
  a \`{ ...spread }\` copy costs ~2 µs, so a spread in \`wireReply\` made every row 20% slower.
- **Node 20 vs 24, and whose Request and Response.** The in-process loop runs about twice as fast on
  Node 24 (faster undici, JSON and promise handling). On Node 20 a call is ~46 µs either way,
  \`petstore.fetch(new Request(…))\` or \`petstore.fetch(url, init)\` (\`node bench/micro.mjs\`): ~6 µs
  for the caller's undici Request, ~21 µs for building and reading the runtime's Response, the
  rest the pipeline. The target names the first form; with the runtime's Response it lands below the
  30,000 target on Node 20 (this run: ${f(Math.min(...inProcess.rates))}–${f(Math.max(...inProcess.rates))} across passes) and above it on Node 24.
- **The scale target compares different pages.** With one pet in 1,000 sold, 10^3 pets hold one
  sold pet, so that page has 1 pet while 10^5 and 10^6 give full 20-pet pages: the 10^6 / 10^3
  ratio measures page size, not store size. Between 10^5 and 10^6 (same page) the p50 is flat, and
  \`src/storage/memory-pet-storage.test.ts\` counts the pets a page's search reads: at most 21 of 10^6
  (a binary search), then the page itself.
`;
writeFileSync('BENCHMARKS.md', report + findings);
console.log(report + findings);
log('BENCHMARKS.md written');
