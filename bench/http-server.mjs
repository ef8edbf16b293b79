// One server for the HTTP benchmarks, in its own process: `node bench/http-server.mjs <kind> <key>`.
// Kinds: petstore (our Node adapter), petstore-otel and petstore-traced (the same with telemetry, bench/telemetry.mjs); fastify, fastify-lean and hono (bench/peers: the same work on
// Fastify 5 in its full idiom and written lean for speed, and on Hono 4, over the same stores);
// store (`serve(createPetStore(…))`, configured as the command configures it, for bench/command.mjs);
// whatwg (a bare @whatwg-node/server adapter returning a constant 20-pet JSON), floor (node:http
// writing our answer's headers and body to the GET and the rejection scenarios, fixed, with no work,
// or with FLOOR_WORK_US µs of busy work before each) and raw (node:http
// after a string compare of the key). Prints "ready <port>", and for ours (petstore, store), set up as
// the command is, "ready <port> unseeded [address header]": bench/load.mjs then seeds their pets over HTTP.
import { createServer } from 'node:http';
import { createServerAdapter, Response } from '@whatwg-node/server';
import { memoryLimitStore, memoryPetStorage } from 'petstore-service/storage';
import { createPetStore, serve } from 'petstore-service/node';
import { SEED_KEY, SEEDED } from './peers/same-work.mjs';

const [kind, KEY] = process.argv.slice(2);
// The first page the other servers answer with (the seeded pets 1 to 20), byte for byte.
const PETS = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `pet ${i + 1}`, categoryId: (i + 1) % 5, status: 'available' }));
const BODY = JSON.stringify(PETS);

/** What the fastify and hono servers are given alike: the stores, seeded, and the key's quota. */
async function sameWork() {
  const storage = memoryPetStorage();
  for (let i = 1; i <= SEEDED; i++) await storage.create({ name: `pet ${i}`, categoryId: i % 5, status: 'available' });
  return { storage, limitStore: memoryLimitStore(), apiKeys: { [KEY]: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } } };
}

/**
 * What ours are given, as the command makes it of its flags (bench/command.mjs): empty memory
 * stores, the bench key and the seeding key (`--key … --key bench-seeding-key:enterprise:1000:1000`),
 * seeded by bench/load.mjs over HTTP as the command is. So `serve()`'s rows and the command's differ
 * only in what the command adds, not in how the bench set them up: pets stored in process had
 * made serve()'s GET look 1-3 % cheaper than the command's in alternating rounds.
 */
function asTheCommand() {
  const apiKeys = { [KEY]: { perMinute: 1_000_000_000, perDay: 1_000_000_000 }, [SEED_KEY]: { perMinute: 1000, perDay: 1000 } };
  // PETSTORE_BENCH_BAN_HOLD_MS=0 (bench/http.mjs): a 429 sent at once, so its own cost is measured; unset, the default hold (bench/flood-fairness.mjs).
  const hold = process.env.PETSTORE_BENCH_BAN_HOLD_MS;
  return { storage: memoryPetStorage(), limitStore: memoryLimitStore(), apiKeys, ...(hold === undefined ? {} : { banHoldMs: Number(hold) }) };
}

let port;
let unseeded = '';
if (kind === 'petstore') {
  // Callers without a key are told apart by X-Forwarded-For behind one trusted proxy, as the command's
  // --trust-proxy 1 does: the 401 scenario comes from many addresses. (A clientAddress option reading
  // X-Real-IP, as before, makes each keyless request build a Request for the callback: that measured
  // the option, 10 % of a 401, not serve().)
  const server = await serve({ port: 0, ...asTheCommand(), trustProxy: 1, onError: () => {} });
  port = new URL(server.url).port;
  unseeded = ' unseeded x-forwarded-for';
} else if (kind === 'petstore-otel' || kind === 'petstore-traced') {
  // bench/telemetry.mjs: the same serve(), with openTelemetry(); traced registers an SDK that records every span first.
  if (kind === 'petstore-traced') (await import('./peers/otel-sdk.mjs')).registerSdk();
  const { openTelemetry } = await import('petstore-service/opentelemetry');
  const server = await serve({ port: 0, ...asTheCommand(), trustProxy: 1, onError: () => {}, telemetry: openTelemetry() });
  port = new URL(server.url).port;
  unseeded = ' unseeded x-forwarded-for';
} else if (kind === 'store') {
  // What the command makes of its flags, minus the access log: keys, memory stores, an onError; no proxy.
  const server = await serve(createPetStore({ ...asTheCommand(), onError: () => {} }), { port: 0 });
  port = new URL(server.url).port;
  unseeded = ' unseeded';
} else if (kind === 'fastify' || kind === 'fastify-lean' || kind === 'hono') {
  const peer = await import(`./peers/${kind}.mjs`);
  port = await peer.listen(await sameWork());
} else if (kind === 'whatwg') {
  const adapter = createServerAdapter(() => new Response(BODY, { headers: { 'content-type': 'application/json' } }));
  port = await listen(createServer(adapter));
} else if (kind === 'raw') {
  const expected = `Bearer ${KEY}`;
  port = await listen(
    createServer((request, response) => {
      if (request.headers.authorization !== expected) {
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"unauthorized"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    }),
  );
} else if (kind === 'floor') {
  // What node:http costs with no work at all: our answer to each scenario measured on it (the GET,
  // and the 401, 429 and 400 of the rejection scenarios), its status, headers and body fixed, told
  // apart by two string compares.
  const fixed = (status, reason, body, headers) => ({
    status,
    reason,
    body,
    headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
  });
  const free = (remaining, t) => ({
    'X-RateLimit-Limit': '60',
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': '1795776180',
    'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
    RateLimit: `"minute";r=${remaining};t=${t}, "day";r=940;t=47835`,
  });
  const enterprise = {
    'X-RateLimit-Limit': '1000000000',
    'X-RateLimit-Remaining': '999999999',
    'X-RateLimit-Reset': '1795737600',
    'RateLimit-Policy': '"minute";q=1000000000;w=60, "day";q=1000000000;w=86400',
    RateLimit: '"day";r=999999999;t=12925, "minute";r=999999999;t=25',
  };
  const page = fixed(200, 'OK', BODY, { Link: '</v1/pets?cursor=cDE6MjA>; rel="next"', ...enterprise });
  const badQuery = fixed(
    400,
    'Bad Request',
    '{"code":"invalid_request","message":"Invalid query: limit must be an integer from 1 to 100.","status":400,"details":[{"field":"limit","message":"must be an integer from 1 to 100"}]}',
    enterprise,
  );
  const wrongKey = fixed(401, 'Unauthorized', '{"code":"unauthorized","message":"The API key is not valid.","status":401}', {
    'WWW-Authenticate': 'Bearer realm="petstore", error="invalid_token"',
    ...free(59, 15),
  });
  const banned = fixed(
    429,
    'Too Many Requests',
    '{"code":"key_banned","message":"Too many requests after being limited; banned for 900 more seconds.","status":429}',
    {
      ...free(0, 900),
      'Retry-After': '900',
    },
  );
  const keyed = `Bearer ${KEY}`;
  // FLOOR_WORK_US: that many µs of busy work before each answer, standing for a server's own work
  // (bench/rejection-budget.mjs: how much work a rejection may do and still reach its goal).
  const work = BigInt(Math.round(Number(process.env.FLOOR_WORK_US ?? 0) * 1000));
  port = await listen(
    createServer((request, response) => {
      if (work > 0n) for (const until = process.hrtime.bigint() + work; process.hrtime.bigint() < until; );
      const authorization = request.headers.authorization;
      const answer = authorization === undefined ? banned : authorization !== keyed ? wrongKey : request.url.endsWith('limit=0') ? badQuery : page;
      response.writeHead(answer.status, answer.reason, answer.headers).end(answer.body);
    }),
  );
} else {
  throw new Error(`unknown server kind ${kind}`);
}
console.log(`ready ${port}${unseeded}`);

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}
process.on('SIGTERM', () => process.exit(0)); // lets --cpu-prof write its profile
