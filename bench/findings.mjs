// The hand-written findings under the measured tables of BENCHMARKS.md: what the profiles showed, what was fixed, why targets are missed.

import { issue49 } from './findings-49.mjs';

/** What issue 28's profiles showed, with this run's ceiling on node:http. */
const issue28 = ({ ceiling, cpu, tails, rejectionCeiling }) => `
**Issue 35 (the command costs no more than \`serve()\`, a refusal less than an answer).** Measured
with \`node bench/cpu-per-request.mjs\` and scripts like it (server CPU µs per answer, servers or builds
alternating in rounds, medians of the per-round ratios), and \`node --cpu-prof\` on the command and on a
loop calling the node listener with fake req/res.

- **Changed: \`serve()\` is set up as the command is.** Its row had pets stored in process and a
  \`clientAddress\` option reading X-Real-IP; the command's pets are created over HTTP by a seeding key
  and it reads X-Forwarded-For behind \`--trust-proxy 1\`. The option made every keyless request build
  a Request for the callback (serve()'s 401 cost ~11 % more than the command's \`--quiet\` in one run),
  and the two setups alone put the GETs 5–7 % apart in alternating rounds before any change to the
  command. Now serve() gets the command's two keys and empty stores, is seeded over HTTP
  (bench/load.mjs), and trusts one proxy: the rows differ only in what the command adds.
- **Fixed: refusals rebuilt what never changes.** The two 401s had their body made and serialized on
  every refusal; a banned caller's 429 built its quota headers, its error and its body per request;
  a refused query ran valibot's failing path, mapped its issues and serialized a fresh 400, thrown
  before the operation's first await (a rejection Node tracks as unhandled until the caller listens).
  Now a fixed error's reply is serialized once (\`fixedError\`, src/response/reply.ts), the limiter
  keeps its last ban answer while its seconds and counts are unchanged, GET /pets keeps the 400s of up
  to 64 refused parameter sets and returns, not throws, them, and X-Forwarded-For is walked in place.
  In process (trustProxy 1): 401 7.6 to 7.0 µs, 429 6.1 to 3.7, 400 13.5 to 4.6; a GET is ~6.
  Over HTTP, the command \`--quiet\` built from before and after, 5 alternating rounds: 401 0.84×,
  429 0.89×, 400 0.70× the CPU per answer, GET 1.01×.
- **The command's GET against \`serve()\`'s: nothing of ours differs.** Profiled apart (\`--cpu-prof\`
  on each under the same GET load, self time per function scaled to µs per answer), no function of
  ours differs by more than 0.25 µs between \`serve()\` and the command \`--quiet\`: the differences are
  in \`writev\` and node's write path, the kernel's loopback send, which moves with the machine. In
  alternating rounds at load 3–16 the quiet command's GET took 0.91–1.13× serve()'s CPU. Formatting
  an access-log line costs ~0.2 µs; the rest of the log's cost is its write (\`node bench/log-lines.mjs\`).
- **What a refusal still costs.** A 401 does all a GET does but the page: node:http's parse and
  write (the floor row), the target, the route, the key lookup, the anonymous caller's address and
  subject, a take on the address counters (a linked Map of up to 100,000 addresses; a key's is a Map), both
  windows' quota headers, the header merge and the write. The page itself (the list, each pet's
  cached JSON, the Link) is ~1–2 µs of a GET's ~6 in process: the rest is the same work, so a
  refusal cannot fall much below a GET on our side; node:http's share (the floor) is the same for both.
  In two alternating runs after these changes (GET and each refusal in turn on the same server), the
  GET's CPU ÷ the refusal's was, for the command \`--quiet\`: 400 1.11–1.32×, 401 1.11–1.15×, 429
  1.18–1.27×; with its log 1.14–1.15×, 1.03–1.07×, 1.10–1.28×: 1.3× is not reached on this machine.

**Issue 28 (speed where users feel it).** Profiled with \`perf record -g\` on the command under
autocannon (\`node --perf-basic-prof\`, CONTRIBUTING.md), and \`node --cpu-prof\` on the in-process loop.

- **The HTTP goals against lean Fastify: missed, and the floor row says by how much.** A
  node:http server that writes our GET answer (status, the same headers and body, fixed) and does
  nothing else ran at ${ceiling} lean Fastify's GET rate in this run. CPU per GET answer: floor
  ${cpu.floor} µs, lean Fastify ${cpu.lean} µs, \`serve()\` ${cpu.ours} µs. So node:http leaves room: 1.4× lean
  Fastify allows ${cpu.quietBudget} µs a GET, ${cpu.workBudget} µs of work above the floor, where \`serve()\` spends
  ${cpu.oursWork} µs. The command's \`--quiet\` GET spent ${cpu.commandExtra} µs more than \`serve()\`'s in this run (the
  two set up alike since #35), and its log ${cpu.logExtra} µs more again. In \`perf\` on the command's GET, ~53 % of samples are node's own code
  (llhttp, IncomingMessage and ServerResponse as streams, header checks, the socket write), ~18 %
  the kernel's TCP, our request path (\`answer\`: auth, both windows, route, page) ~11 points and
  the direct write's own work ~5, no single function of ours above ~3 %: the gap is ours, spread
  thin. A server below node:http would widen the room (a prototype on Node's llhttp binding over
  \`net\` answered a fixed GET for 25.4 µs of CPU against node:http's 41.1 µs, with the same
  machine busy), but it would have to re-earn every edge node:http gives us (timeouts,
  408/413/431, pipelining, Expect, upgrades): not done here.
- **Rejections at 1.3× the command's GET (a target until #49, which measures refusals against the floor instead): node:http leaves room for it; ours reached it in some runs, not in most.**
  The floor answered each rejection scenario too, its fixed answer sent as ours are (the ceiling
  row): ${rejectionCeiling.map((r) => `${r.short} at ${r.rps} the command \`--quiet\` GET rate (${r.cpu} µs of CPU an answer)`).join(', ')}.
  No server on node:http does a rejection with less work than that. Until 2026-11-27 the 401
  scenario rebuilt each request in autocannon (\`setupRequest\`, a new address each time), which
  held even the floor's 401 at 1.17–1.20× in every run: the client's work, not a server's. Its
  10,000 requests are now built before the run (bench/peers/same-work.mjs), and the floor's 401
  went to 1.75× (\`node bench/rejection-budget.mjs --work=0,5 --passes=5 --seconds=3\`).
  **How much work a rejection may do**, by the same script, the floor answering after a busy wait
  (rate ÷ the command \`--quiet\` GET, 401 · 429 · 400, three runs of 5 passes × 3 s on 2026-11-27):
  no work 1.75–2.39 · 1.79–2.19 · 2.09–2.41×; 5 µs of work an answer 1.46–1.74 · 1.50–1.67 ·
  1.63–1.74×; 9 µs 1.36–1.50 · 1.26–1.48 · 1.40–1.61×. Ours in the same runs: 1.02–1.29 ·
  1.25–1.58 · 1.03–1.59×, one ratio moving by half between runs on this 2-core machine, whose
  client shares the cores. Where no work is done at all, a rejection is barely cheaper than a GET:
  the floor's own rejections ran at 1.07–1.18× its GET (that script) and 0.92–0.95× (this run's
  floor rows), so 1.3× must come from the work a GET does and a rejection does not: the page. In process (the node listener with its request and response faked, the
  command's options) our 429 takes ~3.6 µs, 400 ~4.5, 401 ~5.5, GET ~6.4: well inside the budget.
  Under load it costs far more: our rejections took 14–18 µs of CPU more than the floor's (the
  floor's busy wait of 9 µs cost 9 µs), about 2.7× their time in process. A busy wait touches
  nothing; our path touches many functions and objects (the profiles are flat, with V8's
  megamorphic loads and stores prominent), and between two requests node:http, the kernel and the
  client run on the same cores. In alternating rounds, an answer of the real path cost ~8 µs more
  than a fixed reply behind the same glue (serve() 34.1 µs against 26.1 for the 429), and the glue
  3.5 more than the floor; six nested async functions awaited around a fixed reply cost 2 µs an
  answer more (+11 %, 23.9 against 25.9 µs, 6 alternating rounds), and the path nests about six
  (the host, the store, the edge, the API, the limiter, the limit store).
  Fixed in #35: a refusal is answered, not thrown (the 429 0.83–0.86× the time in process);
  headers are read by their lower-case names without lower-casing each; a node:http call is
  recognised first. Next to look at: fewer objects and shapes per request (each host's view, the
  reply merged twice), awaiting a limit store only when it returns a promise, and one async step
  per request instead of six.
- **Fixed: the access log's key redaction ran on every line** (#35). A regular expression of every
  spelling of every key, over each path: ~1 µs of a logged GET. A path shorter than the shortest
  key cannot hold one, and \`/v1/pets\` now skips it. The command's logged GET went from 1.14–1.20×
  \`serve()\`'s CPU per answer to 1.035× (alternating rounds, 9 × 2 s).
- **Fixed: the access log wrote once per event-loop turn.** At 10 connections a turn carried one
  to three lines, and each write through stdout cost more than the line: 4.3–5.4 µs of CPU a line
  against 2.9 µs now (\`node bench/log-lines.mjs\`). Lines now leave at most 50 ms after the first,
  or at once past 64 KiB (cli/access-log.ts).
- **Fixed: \`petstore.fetch(url, init)\` built a Request.** Its AbortSignal, webidl checks and body
  extraction were ~5 µs of a ~28 µs call, and the call went through the Response-making layers.
  A plain init (method, headers, a string body) is now read through a request view and the
  plain product's reply rendered straight to a Response (hosts/in-process.ts): 13,475 to 21,906
  calls per CPU-second in one A/B run on Node 20; \`compose/in-process.test.ts\` holds both forms equal.
- **Fixed: the page was scanned for its Content-Length.** \`/[^\\x00-\\x7f]/\` over the 1.2 KB page was
  2.6 % of a GET's samples; each pet's UTF-8 length is now counted once, beside its cached JSON.
- **The p99 ÷ p50 goal: the tail is the machine's.** At 10 connections our rows' p99 ran at
  ${tails.ours} their p50, and the peers' at ${tails.peers} in the same run: autocannon shares the two
  cores with the server, and a pass preempted by it stretches every server's tail alike. A
  young-generation collection (~2.5 % of a GET's samples) adds a little to every server's tail;
  no server of the table holds 3× on every row.
- **In process: 1.5× Hono met on Node 20, the Response floor not.** A call is now our request
  path plus building and reading the runtime's Response; the floor is that Response alone, so
  0.8× of it leaves a quarter of the Response's cost for auth, both windows, the route and the
  page. On Node 24 undici builds and reads a Response about twice as fast as on Node 20, so our
  path is a larger share there and both ratios are lower.
`;

/** What earlier issues' profiles showed and fixed. */
const earlier = ({ lowest, highest }) => `
**Earlier issues.**

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
  30,000 target on Node 20 (this run: ${lowest}–${highest} across passes) and above it on Node 24.
- **The scale target compares different pages.** With one pet in 1,000 sold, 10^3 pets hold one
  sold pet, so that page has 1 pet while 10^5 and 10^6 give full 20-pet pages: the 10^6 / 10^3
  ratio measures page size, not store size. Between 10^5 and 10^6 (same page) the p50 is flat, and
  \`src/storage/memory-pet-storage.test.ts\` counts the pets a page's search reads: at most 21 of 10^6
  (a binary search), then the page itself.
- **Figures moved here from the code's comments (#46).** The comments say which path is the
  cheaper one and point here; what each was measured at: splitting a plain origin-form target took
  a sixth of the time \`new URL\` took, half with a query (src/edge/target.ts); a native regex scan
  told an ASCII body in a third of a loop's time (\`utf8Length\`); a stack captured per \`ApiError\`
  cost ~5 µs, a field added to a \`{ ...spread }\` copy ~2 µs, ten times the copy; Node's own Request
  cost ~7 µs to make against ~0.5 µs for the direct path's (\`toRequest\`), a new Request in
  \`fetch(url, init)\` ~5.4 µs of a ~28 µs call, a Headers and a URL ~1 µs; a buffered body's
  resume, 'data' and 'end' ticks ~8 µs a POST; the memory limit store's counts as getters of an
  object literal ~10 µs a store; the limiter's counters as one flat array take a third of the
  memory of an object holding two arrays (test/flood). Redacting base64 runs by looking at one
  character in each run's length took ~25 µs for a 42 KB list of pets, against ~170 µs reading
  each character and ~500 µs for a pattern such as \`[A-Za-z0-9+/_-]{25,}\`
  (controls/secrets/redaction-base64.ts). On PGlite in a directory (a flush of 2 subjects, 4 counters and
  5 pets, median of 5 passes of 300, a one-off script), the exclusive limit store's cleanup DELETE
  took a flush from 586 to 980 µs, and upserting 2 unchanged rows one from 792 to 980 µs: hence the
  cleanup every 64 flushes and rows written only when changed (stores/sql/exclusive-limits.ts).
  \`node bench/data-mixed.mjs\` (the command on \`--data\`, 60 % list, 25 % create, 10 % wrong key,
  5 % get, 20 connections; medians of 3 passes of 5 s, the two builds back to back): 721 req/s
  (p50 25 ms) with \`sqlPetStorage\` and \`sqlLimitStore\`, 8,783 (p50 2.1 ms) with the exclusive
  stores, at the same durability (cli/stores.ts).
  Bundles: the linked map in src/limits/memory-limit-store.ts does all lru-cache did there in
  0.6 kB of the service worker's bundle, where lru-cache took 18 kB, and a bare Map re-inserting
  each key it used cost ten times a call in a flood (a fresh iterator steps over every hole the
  forgotten keys left); an IP library took 13 kB of the worker's 44 kB budget (#45), now read by
  the platform's URL parser (src/limits/ip.ts). Decoded base64 searched for the secrets as typed
  (one literal pattern) ran ~10× faster than for every spelling (controls/secrets/redaction.ts).
- **More figures moved here from the code's comments (#46, after #45).** The journal's budget
  (src/admin-options.ts): under the journal-fill attack (test/cli/journal-flood.test.ts) the
  command peaked at 222 MB of RSS with 16 MiB, 253 MB with 32 and 325 MB with 64; 250,000 pets are
  about 33 MB of heap. Decoding a 64 KiB upload's base64 four times cost ~40 ms of a journaled
  request whose rest costs ~0.1 ms (controls/secrets/redaction-base64.ts). Loading 10^6 pets from
  PGlite as row objects took 13.5 s, as one JSON text a chunk 2.7 s (a one-off script;
  stores/sql/exclusive-pets.ts). Version 1 of the SQL limit store's cleanup read 35-115 ms per take
  at 6,784 callers (EXPLAIN ANALYZE) and 20,065 rows per take at 10,000 callers; indexed, 3 rows at
  100 callers and at 20,000 (stores/sql/migrations.ts). On local workerd a take on a new Durable
  Object cost 4.9 ms of CPU, on one already made 3 ms (400 calls each): the conformance flood's
  4,000 calls about 16 s of CPU, past 160 s of wall time at a load average of 12 to 15 on two cores
  (testing/conformance/limit-store.ts).
`;

/**
 * The findings section, as Markdown. `lowest` and `highest` are this run's in-process calls per
 * second across passes, already formatted; `ceiling` is the node:http floor's GET req/s ÷ lean
 * Fastify's, `cpu` the GET CPU µs per answer of the floor, lean Fastify and `serve()`, formatted.
 */
export const findings = (measured) => `
## Findings (profile of the hot path, and why targets are missed)
${issue49(measured)}${issue28(measured)}${earlier(measured)}`;
