/** petstore-service/testing: the manual clock, fault rules, seeding and the request log. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createTestPetStore, manualClock } from '../../src/testing/index.ts';

const list = (store: ReturnType<typeof createTestPetStore>, path = '/v1/pets') =>
  store.fetch(`http://api.test${path}`, { headers: { authorization: `Bearer ${store.keys.enterprise}` } });

describe('manualClock', () => {
  it('moves only when told, and refuses to go backwards by advance()', () => {
    const clock = manualClock('2026-01-01T00:00:00Z');
    expect(clock.now()).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(clock.advance(1500)).toBe(Date.parse('2026-01-01T00:00:01.500Z'));
    expect(clock.set(new Date('2030-12-05T00:00:00Z'))).toBe(Date.parse('2030-12-05T00:00:00Z'));
    expect(() => clock.advance(-1)).toThrow(TypeError);
    expect(() => clock.set('not a date')).toThrow(TypeError);
  });
});

describe('createTestPetStore', () => {
  it('seeds pets validated like POST, with defaultStatus, and rejects invalid ones', async () => {
    const store = createTestPetStore({ defaultStatus: 'available' });
    expect(await store.seed([{ name: 'Rex', categoryId: 1 }, { name: 'Tom', categoryId: 2, status: 'sold', extra: 1 }])).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
    ]);
    await expect(store.seed([{ name: '', categoryId: 1 }])).rejects.toThrow(/seed: pet 0 is invalid/);
    expect(await store.pets()).toHaveLength(2);
  });

  it('drives the sunset of the deprecated get-by-id with its clock', async () => {
    const store = createTestPetStore({ start: '2030-12-04T23:59:59Z' });
    await store.seed([{ name: 'Rex', categoryId: 1 }]);
    expect((await list(store, '/v1/pets/1')).status).toBe(200);
    store.clock.advance(1000);
    expect((await list(store, '/v1/pets/1')).status).toBe(410);
  });

  it('accepts its own keys plus any given, and takes fetch(request, init) like the standard', async () => {
    const store = createTestPetStore({ apiKeys: { mine: 'free' } });
    const request = new Request('http://api.test/v1/pets', { headers: { authorization: 'Bearer mine' } });
    expect((await store.fetch(request)).status).toBe(200);
    expect((await store.fetch(request, { method: 'HEAD' })).status).toBe(200);
    for (const key of Object.values(store.keys)) expect((await store.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('has a fetch that is exactly the global fetch', () => {
    const store = createTestPetStore();
    expectTypeOf(store.fetch).toEqualTypeOf<typeof fetch>();
    const asGlobal: typeof fetch = store.fetch;
    expect(typeof asGlobal).toBe('function');
  });

  it('takes a host\'s { clientAddress } when called as a handler, so anonymous callers are limited per address', async () => {
    const store = createTestPetStore();
    const anonymous = (clientAddress: string) => store(new Request('http://api.test/v1/pets'), { clientAddress });
    for (let i = 0; i < 60; i++) expect((await anonymous('10.0.0.1')).status).toBe(401);
    expect((await anonymous('10.0.0.1')).status).toBe(429);
    expect((await anonymous('10.0.0.2')).status).toBe(401);
  });

  it('clears bans on reset()', async () => {
    const store = createTestPetStore();
    const free = () => store.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${store.keys.free}` } });
    for (let i = 0; i < 71; i++) await free();
    expect((await (await free()).json()).code).toBe('key_banned');
    await store.reset();
    expect((await free()).status).toBe(200);
    expect(store.requests).toHaveLength(1);
  });
});

describe('faults', () => {
  it('fails the next N matching requests, then lets requests through', async () => {
    const store = createTestPetStore();
    store.faults.failNext(2, { status: 500, path: '/v1/pets' });
    expect((await list(store, '/v1/pets/1')).status).toBe(404);
    expect((await list(store)).status).toBe(500);
    expect((await list(store)).status).toBe(500);
    expect(store.faults.pending).toBe(0);
    expect((await list(store)).status).toBe(200);
  });

  it('matches by method and path pattern, and 503s carry Retry-After', async () => {
    const store = createTestPetStore();
    store.faults.inject({ status: 503, method: 'POST', path: /^\/v1\/pets$/, times: Infinity, retryAfterSeconds: 7 });
    expect((await list(store)).status).toBe(200);
    const post = await store.fetch('http://api.test/v1/pets', { method: 'POST', headers: { authorization: `Bearer ${store.keys.pro}` }, body: '{}' });
    expect(post.status).toBe(503);
    expect(post.headers.get('retry-after')).toBe('7');
    store.faults.clear();
    expect(store.faults.pending).toBe(0);
  });

});
