/** The Workers fake backend's sandboxes over Durable Objects stood in by a Map, on a faked Date: idle times counted in the main object (uses by key and by selector), and objects that lost their memory. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { petStoreWorker } from './index.ts';

const ADMIN = 'admin-token-0123456789';
type Fake = InstanceType<ReturnType<typeof petStoreWorker>['PetStoreFake']>;

/** A fake backend whose objects live in `objects` by name: deleting one is Cloudflare evicting it. */
function fakeBackend() {
  const petstore = petStoreWorker();
  const objects = new Map<string, Fake>();
  const object = (name: string) => objects.get(name) ?? objects.set(name, new petstore.PetStoreFake(undefined, env)).get(name)!;
  const namespace = {
    idFromName: (name: string) => name,
    get: (name: string) => ({ fetch: (input: string | Request) => object(name).fetch(new Request(input)) }),
  };
  const env = { PETSTORE_API_KEYS: 'main-key:free', PETSTORE_ADMIN_TOKEN: ADMIN, PETSTORE_FAKE: namespace };
  const call = (path: string, key: string, init: RequestInit = {}) =>
    petstore.fetch(
      new Request(`http://fake.test${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } }),
      env,
    );
  const open = async (): Promise<{ id: string; keys: { free: string }; selector: string }> =>
    (await call('/__admin/sandboxes', ADMIN, { method: 'POST', body: '{}' })).json();
  const listed = async () => ((await (await call('/__admin/sandboxes', ADMIN)).json()) as { id: string }[]).map((sandbox) => sandbox.id);
  return { objects, call, open, listed };
}

const minutes = (count: number) => vi.advanceTimersByTime(count * 60_000);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime('2026-03-01T00:00:00Z');
});
afterEach(() => vi.useRealTimers());

describe('sandboxes of the Workers fake backend', () => {
  it('keeps a sandbox used every few minutes open past the 30 idle minutes, its use told to the main object', async () => {
    const { call, open, listed } = fakeBackend();
    const { id, keys } = await open();
    for (let i = 0; i < 8; i++) {
      minutes(5);
      expect((await call('/v1/pets', keys.free)).status).toBe(200);
    }
    expect(await listed()).toEqual([id]);
  });

  it('answers 401 to the keys of a sandbox the main object deleted as idle, at their next use', async () => {
    const { call, open, listed } = fakeBackend();
    const idle = await open();
    minutes(25);
    const used = await open();
    minutes(6);
    expect(await listed()).toEqual([used.id]);
    expect((await call('/v1/pets', idle.keys.free)).status).toBe(401);
    expect((await call(`/__admin/sandboxes/${idle.id}/pets`, ADMIN)).status).toBe(404);
  });

  it('wipes a sandbox once the main object forgot it, as when Cloudflare evicts the main object', async () => {
    const { objects, call, open } = fakeBackend();
    const { keys } = await open();
    objects.delete('fake-backend');
    minutes(1);
    expect((await call('/v1/pets', keys.free)).status).toBe(401);
  });

  it('keeps a sandbox reached only by its selector every few minutes open past the 30 idle minutes, and then answers its selector with a 404 once idle', async () => {
    const { call, open, listed } = fakeBackend();
    const { id, keys, selector } = await open();
    expect((await call('/v1/pets', keys.free, { method: 'POST', body: '{"name":"Kept","categoryId":1}' })).status).toBe(201);
    const bySelector = () => call('/v1/pets', 'main-key', { headers: { 'petstore-sandbox': selector } });
    for (let i = 0; i < 8; i++) {
      minutes(5);
      expect(await (await bySelector()).json()).toMatchObject([{ name: 'Kept' }]);
    }
    expect(await listed()).toEqual([id]);
    minutes(31);
    const gone = await bySelector();
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 'not_found', message: expect.stringMatching(/^No open sandbox has this selector/) });
  });

  it('answers a JSON 404 to the selector of a sandbox whose own object was evicted, never the main world', async () => {
    const { objects, call, open } = fakeBackend();
    const { id, selector } = await open();
    objects.delete(`sandbox:${id}`);
    const response = await call('/v1/pets', 'main-key', { headers: { 'petstore-sandbox': selector } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });

  it('answers 401 to the keys of a sandbox whose own object was evicted, while the main object still lists it', async () => {
    const { objects, call, open, listed } = fakeBackend();
    const { id, keys } = await open();
    objects.delete(`sandbox:${id}`);
    expect((await call('/v1/pets', keys.free)).status).toBe(401);
    expect(await listed()).toEqual([id]);
  });

  it('lists a sandbox without counts of its pets and requests, which live in its own object, never as 0', async () => {
    const { call, open } = fakeBackend();
    const { id, keys } = await open();
    await call('/v1/pets', keys.free, { method: 'POST', body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
    const [listed] = (await (await call('/__admin/sandboxes', ADMIN)).json()) as [Record<string, unknown>];
    const one = (await (await call(`/__admin/sandboxes/${id}`, ADMIN)).json()) as Record<string, unknown>;
    expect([listed, one].map((sandbox) => ({ id: sandbox.id, pets: 'pets' in sandbox, requests: 'requests' in sandbox }))).toEqual([
      { id, pets: false, requests: false },
      { id, pets: false, requests: false },
    ]);
  });
});
