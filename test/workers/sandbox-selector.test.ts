/** A sandbox picked per request by its selector on Workers, on local workerd: answered by the sandbox's own PetStoreFake Durable Object, with the main world's keys or its own; off without the admin token. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, watchedFakeBackend } from './workerd.ts';

const WORKER = watchedFakeBackend({ withLimits: true });

const ADMIN = 'admin-token-0123456789';
const MAIN_KEY = 'main-key-0123456789';
let fake: Awaited<ReturnType<typeof startWorker>>;
let d1: Awaited<ReturnType<typeof startWorker>>;
beforeAll(async () => {
  [fake, d1] = await Promise.all([
    startWorker(WORKER, {
      bindings: { PETSTORE_API_KEYS: `${MAIN_KEY}:free`, PETSTORE_ADMIN_TOKEN: ADMIN },
      durableObjects: { PETSTORE_FAKE: 'PetStoreFake' },
    }),
    startWorker(WORKER, {
      bindings: { PETSTORE_API_KEYS: `${MAIN_KEY}:free` },
      d1Databases: { PETSTORE_DB: 'selector' },
      durableObjects: { PETSTORE_LIMITS: 'PetStoreLimits' },
    }),
  ]);
}, 60_000);
afterAll(() => Promise.all([fake?.dispose(), d1?.dispose()]));

type Opened = { id: string; keys: { free: string; pro: string; business: string }; selector: string };

/** A request to the fake backend with `key` as its Bearer token (the main world's unless told) and `headers` besides. */
const call = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}, key = MAIN_KEY) =>
  fetch(new URL(path, fake.origin), { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers } });
const admin = (path: string, init: RequestInit = {}) => call(`/__admin${path}`, {}, init, ADMIN);
const names = async (response: Response) => {
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }[]).map((pet) => pet.name);
};

/** Opens a sandbox with `seed` over the admin API. */
async function open(seed: { name: string; categoryId: number }[] = []): Promise<Opened> {
  const response = await admin('/sandboxes', { method: 'POST', body: JSON.stringify({ seed }) });
  expect(response.status).toBe(201);
  return response.json();
}

/** `response` is a JSON error `status` with `code`; its message. */
async function errorOf(response: Response, status: number, code: string): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = (await response.json()) as { code: string; status: number; message: string };
  expect(body).toMatchObject({ code, status });
  return body.message;
}

describe('the sandbox selector on the Workers fake backend', () => {
  it('is answered by POST /__admin/sandboxes beside id and keys, and shown by GET of the sandbox and of the list', async () => {
    const { id, selector } = await open();
    expect(selector).toMatch(/^pssel_[A-Za-z0-9_-]{32}$/);
    expect(await (await admin(`/sandboxes/${id}`)).json()).toMatchObject({ id, selector });
    expect(await (await admin('/sandboxes')).json()).toEqual(expect.arrayContaining([expect.objectContaining({ id, selector })]));
  });

  it('sends a main-world key to the sandbox named by Petstore-Sandbox or by baggage among other members, the header winning, and a sandbox key with its own selector', async () => {
    const a = await open([{ name: 'Ada', categoryId: 1 }]);
    const b = await open([{ name: 'Bo', categoryId: 1 }]);
    expect(await names(await call('/v1/pets', { 'petstore-sandbox': a.selector }))).toEqual(['Ada']);
    expect(await names(await call('/v1/pets', { baggage: `session=9;p=1, petstore.sandbox = ${b.selector} ;ttl=5, x=y` }))).toEqual(['Bo']);
    expect(await names(await call('/v1/pets', { 'petstore-sandbox': a.selector, baggage: `petstore.sandbox=${b.selector}` }))).toEqual(['Ada']);
    expect(await names(await call('/v1/pets', { baggage: `petstore.sandbox=${b.selector}` }, {}, b.keys.pro))).toEqual(['Bo']);
    expect(await names(await call('/v1/pets'))).not.toContain('Ada');
  });

  it('creates in the sandbox, counts the main-world key there and not in the main world, and journals the exchanges there', async () => {
    const { id, selector } = await open();
    const created = await call('/v1/pets', { 'petstore-sandbox': selector }, { method: 'POST', body: JSON.stringify({ name: 'Sel', categoryId: 1 }) });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: 1, name: 'Sel' });
    const inSandbox = await call('/v1/pets', { 'petstore-sandbox': selector });
    expect(inSandbox.headers.get('x-ratelimit-remaining')).toBe('58');
    expect(await names(inSandbox)).toEqual(['Sel']);
    const mainBefore = Number((await call('/v1/pets')).headers.get('x-ratelimit-remaining'));
    await call('/v1/pets', { 'petstore-sandbox': selector });
    expect(Number((await call('/v1/pets')).headers.get('x-ratelimit-remaining'))).toBe(mainBefore - 1);
    const journal = (await (await admin(`/sandboxes/${id}/requests`)).json()) as { method: string; status: number }[];
    expect(journal.map((exchange) => `${exchange.method} ${exchange.status}`)).toEqual(['POST 201', 'GET 200', 'GET 200']);
    expect(JSON.stringify(journal)).not.toContain(selector);
    const main = (await (await admin('/requests')).json()) as { method: string; requestBody: string }[];
    expect(main.filter((exchange) => exchange.method === 'POST' && exchange.requestBody.includes('"Sel"'))).toEqual([]);
  });

  it('answers a key of one sandbox with the selector of another with a 409 sandbox_conflict', async () => {
    const [a, b] = [await open(), await open()];
    const conflict = await call('/v1/pets', { 'petstore-sandbox': b.selector }, {}, a.keys.free);
    expect(await errorOf(conflict, 409, 'sandbox_conflict')).toMatch(/selector of another/);
  });

  it('answers the selector of a deleted sandbox and a forged one with a JSON 404 naming the sandbox, never the main world, and makes no object for them', async () => {
    const { id, selector } = await open([{ name: 'Gone', categoryId: 1 }]);
    expect(await names(await call('/v1/pets', { 'petstore-sandbox': selector }))).toEqual(['Gone']);
    expect((await admin(`/sandboxes/${id}`, { method: 'DELETE' })).status).toBe(204);
    const forged = `pssel_${'A'.repeat(32)}`;
    for (const headers of <Record<string, string>[]>[
      { 'petstore-sandbox': selector },
      { baggage: `k=v, petstore.sandbox=${forged}` },
      { 'petstore-sandbox': 'pssel_forged' },
    ]) {
      expect(await errorOf(await call('/v1/pets', headers), 404, 'not_found')).toMatch(/^No open sandbox has this selector/);
    }
    const objects = (await (await fetch(new URL('/__test/objects', fake.origin))).json()) as string[];
    expect(objects.filter((name) => name !== 'fake-backend' && !/^sandbox:[0-9a-z]{12}$/.test(name))).toEqual([]);
  });
});

describe('the sandbox selector on a Worker without the admin token', () => {
  it('changes nothing: both headers reach the main world on D1', async () => {
    const headers = { authorization: `Bearer ${MAIN_KEY}`, 'petstore-sandbox': 'pssel_forged', baggage: 'petstore.sandbox=pssel_forged' };
    const response = await fetch(new URL('/v1/pets', d1.origin), { headers });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });
});
