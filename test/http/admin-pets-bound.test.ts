/** The bound on pets in all worlds of a fake backend (the admin option `pets`), over HTTP: the main world and every sandbox count against one total, and give their pets back when reset or deleted. */
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { createContractChecker } from '../contract/checker.ts';
import { testServerBases } from '../contract/record.ts';

const TOKEN = 'admin-token-0123456789';
const KEY = 'main-key-0123456789';
const BOUND = 30;

let running: RunningPetStore | undefined;
/** Admin answers, checked against the admin document after each test (the API's are checked by the contract setup). */
const adminAnswers: { method: string; path: string; status: number; headers: Headers; body: string }[] = [];
afterEach(async () => {
  if (!running) return;
  try {
    const document = await (await fetch(`${new URL(running.url).origin}/__admin/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    const check = createContractChecker(document);
    expect(adminAnswers.splice(0).flatMap((exchange) => check(exchange))).toEqual([]);
  } finally {
    await running.close();
    running = undefined;
  }
});

/** A fake backend holding at most {@link BOUND} pets in all its worlds; `api` with a key, `admin` with the token. */
async function fakeBackend() {
  running = await serve({ port: 0, onError: () => {}, admin: { token: TOKEN, pets: BOUND }, apiKeys: { [KEY]: { perMinute: 1_000, perDay: 1_000 } } });
  testServerBases.add(running.url);
  const origin = new URL(running.url).origin;
  const api = (key: string, init: RequestInit = {}) =>
    fetch(`${running!.url}/pets`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  const create = (key: string) => api(key, { method: 'POST', body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
  const admin = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const response = await fetch(`${origin}/__admin${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    adminAnswers.push({ method, path: `/__admin${path}`, status: response.status, headers: response.headers, body: await response.clone().text() });
    return response;
  };
  return { api, create, admin };
}

const refusal = {
  code: 'insufficient_storage',
  status: 507,
  message: `The fake backend holds at most ${BOUND} pets in all its worlds (--pets, or the admin option pets): delete sandboxes (DELETE /__admin/sandboxes/{id}) or reset (POST /__admin/reset).`,
};

describe('the bound on pets in all worlds', () => {
  it('refuses a create in any world with a JSON 507 naming the bound once the worlds together hold it', async () => {
    const { create, admin } = await fakeBackend();
    expect((await admin('/seed', { generate: { count: 20 } })).status).toBe(201);
    const opened = await admin('/sandboxes', { seed: { generate: { count: 9 } } });
    expect(opened.status).toBe(201);
    const { keys } = (await opened.json()) as { keys: { free: string } };
    expect((await create(keys.free)).status).toBe(201);
    for (const key of [keys.free, KEY]) {
      const refused = await create(key);
      expect(refused.status).toBe(507);
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await refused.json()).toEqual(refusal);
    }
  });

  it('stores nothing of a seed that would pass the bound, in the main world or a new sandbox', async () => {
    const { admin } = await fakeBackend();
    expect((await admin('/seed', { generate: { count: 25 } })).status).toBe(201);
    const seeded = await admin('/seed', { generate: { count: 6 } });
    expect(seeded.status).toBe(507);
    expect(await seeded.json()).toEqual(refusal);
    expect(await (await admin('/pets')).json()).toHaveLength(25);
    const opened = await admin('/sandboxes', { seed: Array.from({ length: 6 }, () => ({ name: 'Ada', categoryId: 2 })) });
    expect(opened.status).toBe(507);
    expect(await (await admin('/sandboxes')).json()).toEqual([]);
  });

  it('gives a world its pets back when it is deleted or reset', async () => {
    const { create, admin } = await fakeBackend();
    const { id } = (await (await admin('/sandboxes', { seed: { generate: { count: BOUND } } })).json()) as { id: string };
    expect((await create(KEY)).status).toBe(507);
    expect((await admin(`/sandboxes/${id}`, undefined, 'DELETE')).status).toBe(204);
    expect((await admin('/seed', { generate: { count: BOUND - 1 } })).status).toBe(201);
    expect((await create(KEY)).status).toBe(201);
    expect((await create(KEY)).status).toBe(507);
    expect((await admin('/reset', undefined, 'POST')).status).toBe(204);
    expect((await admin('/seed', { generate: { count: BOUND } })).status).toBe(201);
  });
});
