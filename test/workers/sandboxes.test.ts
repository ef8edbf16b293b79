/** Sandboxes on the Workers fake backend, on local workerd: each its own PetStoreFake Durable Object, opened, used, listed and deleted over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_HEADER } from '../../runtimes/workers/sandbox-messages.ts';
import { startWorker, watchedFakeBackend } from './workerd.ts';

const WORKER = watchedFakeBackend();

const ADMIN = 'admin-token-0123456789';
const MAIN_KEY = 'main-key-0123456789';
let worker: Awaited<ReturnType<typeof startWorker>>;
let origin: URL;
beforeAll(async () => {
  worker = await startWorker(WORKER, {
    bindings: { PETSTORE_API_KEYS: `${MAIN_KEY}:pro`, PETSTORE_ADMIN_TOKEN: ADMIN },
    durableObjects: { PETSTORE_FAKE: 'PetStoreFake' },
  });
  origin = worker.origin;
}, 60_000);
afterAll(() => worker?.dispose());

const json = { 'content-type': 'application/json' };
type Keys = { free: string; pro: string; business: string };

/** A request with `key` as its Bearer token. */
const call = (path: string, key: string, init: RequestInit = {}) =>
  fetch(new URL(path, origin), { ...init, headers: { authorization: `Bearer ${key}`, ...json, ...init.headers } });
const admin = (path: string, init: RequestInit = {}) => call(`/__admin${path}`, ADMIN, init);
const names = async (key: string) => ((await (await call('/v1/pets', key)).json()) as { name: string }[]).map((pet) => pet.name);
const createPet = async (key: string, name: string) => (await call('/v1/pets', key, { method: 'POST', body: JSON.stringify({ name, categoryId: 1 }) })).json();

/** Opens a sandbox over the admin API; its id and keys. */
async function open(body: unknown = {}): Promise<{ id: string; keys: Keys }> {
  const response = await admin('/sandboxes', { method: 'POST', body: JSON.stringify(body) });
  expect(response.status).toBe(201);
  return response.json();
}

describe('sandboxes on the Workers fake backend', () => {
  it('gives two sandboxes opened over HTTP each its own pets with ids from 1, and leaves the main world untouched', async () => {
    expect(await createPet(MAIN_KEY, 'Main')).toMatchObject({ id: 1 });
    const a = await open({ seed: [{ name: 'Ada', categoryId: 2 }] });
    const b = await open();
    expect(await createPet(b.keys.pro, 'Bo')).toMatchObject({ id: 1, name: 'Bo' });
    expect(await createPet(a.keys.business, 'Abe')).toMatchObject({ id: 2, name: 'Abe' });
    expect(await names(a.keys.free)).toEqual(['Ada', 'Abe']);
    expect(await names(b.keys.free)).toEqual(['Bo']);
    expect(await names(MAIN_KEY)).toEqual(['Main']);
    const journal = await (await admin(`/sandboxes/${b.id}/requests`)).json();
    expect(journal.map((exchange: { method: string; status: number }) => `${exchange.method} ${exchange.status}`)).toEqual(['POST 201', 'GET 200']);
  });

  it('spends one sandbox free minute without touching another sandbox quota, and moves one sandbox clock alone', async () => {
    const [a, b] = [await open(), await open()];
    for (let i = 0; i < 60; i++) expect((await call('/v1/pets', a.keys.free)).status).toBe(200);
    expect((await call('/v1/pets', a.keys.free)).status).toBe(429);
    expect((await call('/v1/pets', b.keys.free)).status).toBe(200);
    const clockOf = async (path: string) => (await (await admin(`${path}/clock`)).json()).now;
    const [mainBefore, bBefore] = [await clockOf(''), await clockOf(`/sandboxes/${b.id}`)];
    const moved = await admin(`/sandboxes/${a.id}/clock`, { method: 'POST', body: JSON.stringify({ advanceMs: 3_600_000 }) });
    expect(Date.parse((await moved.json()).now)).toBeGreaterThanOrEqual(Date.parse(bBefore) + 3_600_000);
    expect((await call('/v1/pets', a.keys.free)).status).toBe(200);
    expect(Date.parse(await clockOf(`/sandboxes/${b.id}`)) - Date.parse(bBefore)).toBeLessThan(3_600_000);
    expect(Date.parse(await clockOf('')) - Date.parse(mainBefore)).toBeLessThan(3_600_000);
  });

  it('sends each sandbox requests to a Durable Object of its own, named for the sandbox', async () => {
    const a = await open();
    await call('/v1/pets', a.keys.free);
    await admin(`/sandboxes/${a.id}/pets`);
    expect(await (await fetch(new URL('/__test/objects', origin))).json()).toEqual(expect.arrayContaining(['fake-backend', `sandbox:${a.id}`]));
  });

  it('lists the open sandboxes, and after DELETE answers a sandbox keys 401 and its admin routes a JSON 404', async () => {
    const [a, b] = [await open(), await open()];
    const listed = await (await admin('/sandboxes')).json();
    expect(listed.map((sandbox: { id: string }) => sandbox.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(listed.find((sandbox: { id: string }) => sandbox.id === a.id)).toMatchObject({ keys: a.keys });
    expect((await admin(`/sandboxes/${a.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call('/v1/pets', a.keys.pro)).status).toBe(401);
    const gone = await admin(`/sandboxes/${a.id}/pets`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 'not_found', message: expect.stringContaining(`There is no sandbox "${a.id}"`) });
    expect((await (await admin('/sandboxes')).json()).map((sandbox: { id: string }) => sandbox.id)).not.toContain(a.id);
    expect((await call('/v1/pets', b.keys.pro)).status).toBe(200);
  });

  it('answers 401 to the keys of a sandbox whose object holds nothing, as after Cloudflare evicted it', async () => {
    const { keys } = await open();
    const stranger = keys.free.replace(/^psbx_[0-9a-z]{12}/, 'psbx_000000000000');
    expect((await call('/v1/pets', stranger)).status).toBe(401);
    expect((await admin('/sandboxes/000000000000/pets')).status).toBe(404);
  });

  it('answers made-up sandbox keys from one address as plain wrong keys, 401s then 429, and opens no object for them', async () => {
    const text = (alphabet: string, length: number) =>
      Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => alphabet[byte % alphabet.length]).join('');
    const madeUp = () =>
      `psbx_${text('0123456789abcdefghijklmnopqrstuvwxyz', 12)}_free_${text('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', 32)}`;
    /** The statuses of 80 requests from `address`, each with a key of `keys`. */
    const statuses = async (address: string, keys: () => string) => {
      const seen: number[] = [];
      for (let i = 0; i < 80; i++) seen.push((await call('/v1/pets', keys(), { headers: { 'cf-connecting-ip': address } })).status);
      return seen;
    };
    const sent: string[] = [];
    const plain = await statuses('203.0.113.7', () => `wrong-key-${text('abcdef', 16)}`);
    const made = await statuses('203.0.113.8', () => (sent.push(madeUp()), sent.at(-1)!));
    expect(plain).toContain(429);
    expect(made).toEqual(plain);
    const objects = (await (await fetch(new URL('/__test/objects', origin))).json()) as string[];
    expect(objects.filter((name) => sent.some((key) => name === `sandbox:${key.slice(5, 17)}`))).toEqual([]);
  });

  it('never lets a client reach the objects internal messages, even with the admin token', async () => {
    const keys = {
      free: `psbx_abcdefabcdef_free_${'x'.repeat(32)}`,
      pro: `psbx_abcdefabcdef_pro_${'x'.repeat(32)}`,
      business: `psbx_abcdefabcdef_business_${'x'.repeat(32)}`,
    };
    const forged = await call('/v1/pets', keys.free, {
      method: 'POST',
      headers: { [INTERNAL_HEADER]: ADMIN },
      body: JSON.stringify({ op: 'open', id: 'abcdefabcdef', keys }),
    });
    expect(forged.status).toBe(401);
    expect((await call('/v1/pets', keys.free)).status).toBe(401);
  });
});
