/**
 * An end-to-end test as a Playwright suite writes one, with Playwright's own HTTP client: it drives a
 * running `petstore-service --admin-token …` only over HTTP. Seed, list, exhaust a free key, move the
 * clock, list again, inject a connection reset, then check the journal. No sleeping anywhere.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { request, type APIRequestContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
const FREE_KEY = 'e2e-free-key';

let server: ChildProcess;
let admin: APIRequestContext;
let app: APIRequestContext;

/** The command as a team's CI starts it, and the API URL it prints. */
async function startPetstore(): Promise<string> {
  server = spawn(process.execPath, [resolve('dist/cli/index.js'), '--port', '0', '--key', `${FREE_KEY}:free`, '--admin-token', ADMIN_TOKEN], {
    env: { ...process.env, PETSTORE_API_KEYS: '', PETSTORE_ADMIN_TOKEN: '' },
  });
  let output = '';
  return new Promise((resolveUrl, reject) => {
    server.stdout!.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (\S+)/.exec(output)?.[1];
      if (url) resolveUrl(url);
    });
    server.on('exit', (code) => reject(new Error(`petstore-service exited with ${code}: ${output}`)));
  });
}

beforeAll(async () => {
  const url = await startPetstore();
  const origin = new URL(url).origin;
  admin = await request.newContext({ baseURL: `${origin}/__admin/`, extraHTTPHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  app = await request.newContext({ baseURL: `${url}/`, extraHTTPHeaders: { authorization: `Bearer ${FREE_KEY}` } });
}, 30_000);

afterAll(async () => {
  await Promise.all([admin?.dispose(), app?.dispose()]);
  server?.kill();
});

it('seeds, lists, exhausts a free key, moves the clock past the window, survives an injected reset, and checks the journal', async () => {
  expect((await admin.post('reset')).status()).toBe(204);
  await admin.post('clock', { data: { set: '2026-06-01T12:00:00Z' } });
  const seeded = await admin.post('seed', {
    data: [
      { name: 'Rex', categoryId: 1 },
      { name: 'Tom', categoryId: 2, status: 'sold' },
    ],
  });
  expect(seeded.status()).toBe(201);

  const first = await app.get('pets');
  expect(first.status()).toBe(200);
  expect((await first.json()).map((pet: { name: string }) => pet.name)).toEqual(['Rex', 'Tom']);

  // The free plan admits 60 a minute: 59 more, then a 429 that says when to come back.
  for (let i = 0; i < 59; i++) expect((await app.get('pets?limit=1')).status()).toBe(200);
  const limited = await app.get('pets');
  expect(limited.status()).toBe(429);
  expect(await limited.json()).toMatchObject({ code: 'rate_limited', status: 429 });
  expect(limited.headers()['retry-after']).toBe('60');

  expect(await (await admin.post('clock', { data: { advanceMs: 60_000 } })).json()).toEqual({ now: '2026-06-01T12:01:00.000Z' });
  expect((await app.get('pets')).status()).toBe(200);

  // The next create loses its connection; the client's retry goes through.
  expect((await admin.post('faults', { data: { network: 'reset', method: 'POST' } })).status()).toBe(201);
  await expect(app.post('pets', { data: { name: 'Kit', categoryId: 3 } })).rejects.toThrow(/socket hang up|ECONNRESET/);
  const retried = await app.post('pets', { data: { name: 'Kit', categoryId: 3 } });
  expect(await retried.json()).toEqual({ id: 3, name: 'Kit', categoryId: 3 });

  const journal: { method: string; path: string; status: number }[] = await (await admin.get('requests')).json();
  const count = (method: string, status: number) => journal.filter((r) => r.method === method && r.path === '/v1/pets' && r.status === status).length;
  expect([count('GET', 200), count('GET', 429), count('POST', 0), count('POST', 201)]).toEqual([61, 1, 1, 1]);
  expect(await (await admin.get('faults')).json()).toEqual([]);
  // 66 requests in sequence: a safety net for a busy CI machine, not a speed claim.
}, 30_000);
