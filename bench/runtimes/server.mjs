// One server for the Deno and Bun rows, on whichever of the two runs it: `deno run -A bench/runtimes/server.mjs <kind> <key>` or `bun bench/runtimes/server.mjs <kind> <key>`.
// Kinds: petstore (our serve() of petstore-service/deno or /bun) and hono (the Hono peer on Deno.serve
// or Bun.serve, Hono's idiom on each). Both over the same seeded memory stores. Prints "ready <port>".
import { memoryLimitStore, memoryPetStorage } from 'petstore-service/storage';
import { createApp } from '../peers/hono-app.mjs';

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : undefined;
if (runtime === undefined) throw new Error('bench/runtimes/server.mjs runs on Deno or Bun; Node has bench/http-server.mjs');
const [kind, KEY] = runtime === 'deno' ? globalThis.Deno.args : process.argv.slice(2);
/** Pets seeded in every store, as bench/http-server.mjs seeds them: the first page carries `Link: rel="next"`. */
const SEEDED = 100;

const storage = memoryPetStorage();
for (let i = 1; i <= SEEDED; i++) await storage.create({ name: `pet ${i}`, categoryId: i % 5, status: 'available' });
const sameWork = { storage, limitStore: memoryLimitStore(), apiKeys: { [KEY]: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } } };

let port;
if (kind === 'petstore') {
  const { serve } = await import(`petstore-service/${runtime}`);
  // Callers without a key are told apart by X-Real-IP, as behind a proxy, as on Node.
  const server = await serve({ port: 0, ...sameWork, clientAddress: (request) => request.headers.get('x-real-ip') ?? undefined, onError: () => {} });
  port = new URL(server.url).port;
} else if (kind === 'hono') {
  const app = createApp(sameWork);
  if (runtime === 'deno') {
    const server = globalThis.Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: () => {} }, app.fetch);
    port = server.addr.port;
  } else {
    port = globalThis.Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch }).port;
  }
} else {
  throw new Error(`unknown server kind ${kind}`);
}
console.log(`ready ${port}`);
