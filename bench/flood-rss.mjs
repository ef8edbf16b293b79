// The server's RSS before and after 100,000 requests with an invalid key from one address: `node bench/flood-rss.mjs [count]`.
// Each variant gets a fresh server (our Node adapter, `serve`, the built package) in its own
// process, forked with --expose-gc and an IPC channel; autocannon floods it from this process
// over loopback, so every request comes from 127.0.0.1. Prints one JSON line; bench/index.mjs
// turns it into rows of BENCHMARKS.md with `floodTargets` and `floodSection`.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SELF = fileURLToPath(import.meta.url);
const VALID_KEY = 'bench-flood-valid-key';
const CONNECTIONS = 10;
/** Requests with the valid key before the baseline: see `floodOne`. */
const WARM_UP = 1_000;
/** The goal of issue #19: the flood may add at most this much RSS, in bytes (MB = 10^6 bytes). */
const RSS_BOUND = 20e6;

/** A wrong bearer token per request number: one for the whole flood, or a new one each time (an attacker guessing keys). */
const VARIANTS = {
  'one invalid key': () => 'Bearer wrong-key',
  'a distinct invalid key per request': (i) => `Bearer wrong-key-${i.toString(36)}`,
};

if (process.argv[1] === SELF && process.argv[2] === 'server') {
  await runServer();
} else if (process.argv[1] === SELF) {
  const count = Number(process.argv[2] ?? 100_000);
  const variants = {};
  for (const [name, token] of Object.entries(VARIANTS)) variants[name] = await floodOne(count, token);
  console.log(JSON.stringify({ count, connections: CONNECTIONS, warmUp: WARM_UP, bound: RSS_BOUND, variants }));
}

/**
 * One fresh server, flooded with `count` GET /v1/pets whose Authorization is `token(i)`.
 *
 * The baseline is taken after WARM_UP requests with a valid key: a server that has answered
 * nothing yet has not compiled its request path nor touched its young generation's pages, and
 * the first thousand requests of any kind cost that (10–13 MB of RSS here), flood or not. The RSS
 * of the idle, fresh server is reported too (`cold`).
 */
async function floodOne(count, token) {
  const server = fork(SELF, ['server'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const [{ port }] = await once(server, 'message');
    const url = `http://127.0.0.1:${port}/v1/pets`;
    const memory = async () => {
      server.send('memory');
      const [reply] = await once(server, 'message');
      return reply;
    };
    const cold = await memory();
    const warmUp = await autocannon({ url, connections: CONNECTIONS, amount: WARM_UP, headers: { authorization: `Bearer ${VALID_KEY}` } });
    if (warmUp.non2xx > 0 || warmUp.errors > 0) throw new Error(`the warm-up was refused: ${JSON.stringify(warmUp.statusCodeStats)}`);
    const before = await memory();
    let sent = 0;
    const flood = await autocannon({
      url,
      connections: CONNECTIONS,
      amount: count,
      requests: [{ setupRequest: (request) => ({ ...request, headers: { authorization: token(sent++) } }) }],
    });
    const after = await memory();
    return {
      cold,
      before,
      after,
      growth: after.rss - before.rss,
      growthFromCold: after.rss - cold.rss,
      withinBound: after.rss - before.rss <= RSS_BOUND,
      statuses: Object.fromEntries(Object.entries(flood.statusCodeStats).map(([status, { count: n }]) => [status, n])),
      errors: flood.errors,
      seconds: flood.duration,
    };
  } finally {
    server.kill();
  }
}

/**
 * The server process. A `memory` message is answered once every connection has closed (the
 * flood is over and answered: nothing is in flight) and after full collections, with what the
 * process holds: RSS, the V8 heap by space, and the limit store's counts of what it tracks.
 */
async function runServer() {
  const { getHeapSpaceStatistics } = await import('node:v8');
  const { memoryLimitStore } = await import('petstore-service/storage');
  const { serve } = await import('petstore-service/node');
  const limitStore = memoryLimitStore();
  const { server, url } = await serve({
    port: 0,
    hostname: '127.0.0.1',
    apiKeys: { [VALID_KEY]: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } },
    limitStore,
    // Every answer sent at once: with the default hold (1 s per banned request) 100,000 requests
    // would take hours. What a held answer keeps is bounded apart (maxHeldBans; docs/limits.md).
    banHoldMs: 0,
    onError: () => {},
  });
  let open = 0;
  const waiting = [];
  server.on('connection', (socket) => {
    open++;
    socket.once('close', () => {
      if (--open === 0) for (const resolve of waiting.splice(0)) resolve();
    });
  });
  const idle = () => (open === 0 ? undefined : new Promise((resolve) => waiting.push(resolve)));
  const committed = (name) => getHeapSpaceStatistics().find((space) => space.space_name === name)?.space_size;

  process.on('message', async (message) => {
    if (message !== 'memory') return;
    await idle();
    const rssSeen = process.memoryUsage().rss;
    globalThis.gc();
    // Finalizers and weak callbacks run after a collection; the second one frees what they let go.
    await new Promise((resolve) => setImmediate(resolve));
    globalThis.gc();
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    process.send({
      rssSeen,
      rss,
      heapUsed,
      heapTotal,
      newSpace: committed('new_space'),
      oldSpace: committed('old_space'),
      codeSpace: committed('code_space'),
      external,
      arrayBuffers,
      addresses: limitStore.addressCount,
      keys: limitStore.keyCount,
      bans: limitStore.banCount,
    });
  });
  process.send({ port: new URL(url).port });
}

const mb = (bytes) => (bytes / 1e6).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const count = (n) => n.toLocaleString('en-US');

/**
 * Rows of the Targets table for what this file printed: the RSS the flood added over the warmed-up
 * baseline, and over the fresh server's, one figure per variant.
 */
export function floodTargets({ count: requests, bound, variants }) {
  const runs = Object.values(variants);
  const row = (baseline, field) => [
    `RSS added by a ${count(requests)}-request invalid-key flood from one address (one key / a distinct key each), ${baseline}`,
    `≤ ${mb(bound)} MB`,
    runs.map((run) => `${mb(run[field])} MB`).join(' / '),
    runs.every((run) => run[field] <= bound),
  ];
  return [row('over a server warmed up by 1,000 requests', 'growth'), row('over a fresh, idle server', 'growthFromCold')];
}

/** The section of BENCHMARKS.md on the flood: every figure of each variant, and what grew. */
export function floodSection({ count: requests, connections, warmUp, variants }) {
  const rows = Object.entries(variants).map(([name, run]) => {
    const answers = Object.entries(run.statuses)
      .map(([status, n]) => `${count(n)} × ${status}`)
      .join(', ');
    const state = `${run.after.addresses} address, ${run.after.bans} ban, ${run.after.keys} key (the warm-up's)`;
    const cells = [name, answers, mb(run.cold.rss), mb(run.before.rss), mb(run.after.rss), mb(run.growth), mb(run.growthFromCold)];
    cells.push(`${mb(run.before.heapUsed)} → ${mb(run.after.heapUsed)}`, `${mb(run.before.newSpace)} → ${mb(run.after.newSpace)}`, state);
    return `| ${cells.join(' | ')} |`;
  });
  const runs = Object.values(variants);
  const grewYoung = runs.some((run) => run.after.newSpace > run.before.newSpace);
  const heapAdded = Math.max(...runs.map((run) => run.after.heapUsed - run.before.heapUsed));
  return `## Invalid-key flood: the server's RSS

\`node bench/flood-rss.mjs\`: for each variant a fresh server (\`serve\` from \`petstore-service/node\`, in its
own process, \`--expose-gc\`) answers ${count(warmUp)} requests with a valid key, then ${count(requests)} \`GET /v1/pets\` with a
wrong \`Bearer\` key, from 127.0.0.1 over ${connections} keep-alive connections (autocannon). The server reads its own
memory once every connection has closed and after two full collections. MB = 10^6 bytes; "fresh" is
the idle server before any request, "before" the one after the warm-up. The ban's answers are sent at
once here (\`banHoldMs: 0\`): held, 100,000 of them would take hours; what held answers keep is bounded
apart, at most \`maxHeldBans\` (1,000) of about 9 kB of heap each (docs/limits.md).

| Flood | Answers | RSS fresh | RSS before | RSS after | Added | Added since fresh | Heap used | V8 young generation (committed) | Limit store after |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

What the flood leaves behind is one address's counters and its ban, whichever keys were sent (each
is hashed, looked up and dropped): the live heap after a collection grew by ${mb(heapAdded)} MB at most.
${
  grewYoung
    ? `The RSS grows because V8's young generation doubled during the flood (${mb(runs[0].before.newSpace)} → ${mb(runs[0].after.newSpace)} MB committed, and
touched). V8 doubles it each time the bytes surviving its minor collections add up to its size: here
~550 bytes of each request survived one (\`node --trace-gc-nvp\`), against ~10 for a bare @whatwg-node
adapter, and the live heap shows none of them after a full collection. The cause found: on Node 20
(V8 11.3) an object built by spreading another and then given more keys (\`{ ...a, ...b }\`, \`{ ...a, k: v }\`)
gets a new hidden class at every evaluation, and the request path builds several so (the limiter's
headers, \`withHeaders\`, \`render\`, CORS). \`Object.assign({}, a, b)\` reuses one (Node 24 reuses it either
way); a build with those spreads so replaced had ~20 bytes a request surviving, kept its young
generation, and the flood added 2–6 MB over the warmed-up server, 14–18 MB over the fresh one.`
    : 'The young generation kept its size: what the flood allocated died young.'
}`;
}
