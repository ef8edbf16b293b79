/** Per-step costs of one GET /v1/pets, measured on the source (bundled by bench/micro.mjs). */
import { Response as PonyfillResponse } from '@whatwg-node/server';
import { createAuthenticator } from '../src/auth/auth.ts';
import { createPetStore } from '../compose/index.ts';
import { memoryLimitStore, memoryPetStorage } from '../stores/memory/index.ts';
import { createRateLimiter } from '../src/limits/limiter.ts';
import { ListQuerySchema } from '../src/operations/inputs.ts';
import { parseInput } from '../src/operations/validation.ts';
import { render, withHeaders } from '../src/response/reply.ts';

const N = 100_000;
async function time(name: string, step: () => unknown): Promise<void> {
  for (let i = 0; i < 10_000; i++) await step();
  const started = performance.now();
  for (let i = 0; i < N; i++) await step();
  console.log(`${name.padEnd(40)} ${(((performance.now() - started) * 1000) / N).toFixed(2)} µs`);
}

const headers = { authorization: 'Bearer bench-key' };
const request = new Request('http://bench.local/v1/pets', { headers });
const authenticate = createAuthenticator(new Map([['bench-key', 'pro']]));
const limit = createRateLimiter({ limitStore: memoryLimitStore(), now: Date.now, banThreshold: 10, banDurationMs: 1_000 });
const storage = memoryPetStorage();
for (let i = 0; i < 20; i++) await storage.create({ name: `pet ${i}`, categoryId: i, status: 'available' });
const pets = await storage.list({ after: 0, limit: 20 });
const json = JSON.stringify(pets);
const quota = { 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': '1', RateLimit: 'a', 'RateLimit-Policy': 'b' };
const petstore = createPetStore({ apiKeys: { 'bench-key': { perMinute: 1e9, perDay: 1e9 } }, storage });

await time('new Request (undici, the caller pays it)', () => new Request('http://bench.local/v1/pets', { headers }));
await time('new URL(request.url)', () => new URL(request.url));
await time('authenticate (SHA-256 of the key)', () => authenticate(request));
await time('rate limit (both windows, memory store)', () => limit('key:bench', { perMinute: 1e9, perDay: 1e9 }));
await time('validate the list query', () => parseInput(ListQuerySchema, {}, 'query'));
await time('storage.list (21 pets)', () => storage.list({ after: 0, limit: 21 }));
await time('JSON.stringify(20 pets)', () => JSON.stringify(pets));
await time("render (cached JSON, 7 headers, the runtime's Response)", () => render(withHeaders({ status: 200, json }, quota)));
await time("@whatwg-node's Response", () => new PonyfillResponse(json, { status: 200, headers: quota }));
await time("the runtime's global Response", () => new Response(json, { status: 200, headers: quota }));
await time("@whatwg-node's Response + text()", () => new PonyfillResponse(json, { status: 200, headers: quota }).text());
await time("the runtime's global Response + text()", () => new Response(json, { status: 200, headers: quota }).text());
await time('petstore.fetch(new Request(…)) + text()', async () => (await petstore.fetch(new Request('http://bench.local/v1/pets', { headers }))).text());
await time('petstore.fetch(url, init) + text()', async () => (await petstore.fetch('http://bench.local/v1/pets', { headers })).text());
