/** Sandboxes in process: each its own world, chosen by its keys; capped; deleted when idle on the real clock. */
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/create-pet-store.ts';
import { createTestPetStore } from '../../testing/index.ts';

const ADMIN = 'admin-token-0123456789';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const json = { 'content-type': 'application/json' };

describe('sandboxes in the test kit', () => {
  it('gives each sandbox its own pets, ids from 1, journal and clock, and leaves the main world alone', async () => {
    const petstore = createTestPetStore({ start: '2026-01-01T00:00:00Z' });
    await petstore.seed([{ name: 'Main', categoryId: 1 }]);
    const a = await petstore.sandbox({ seed: [{ name: 'Ada', categoryId: 2 }] });
    const b = await petstore.sandbox();
    const created = await petstore.fetch('http://api.test/v1/pets', {
      method: 'POST',
      headers: { ...json, ...bearer(b.keys.pro) },
      body: JSON.stringify({ name: 'Bo', categoryId: 3 }),
    });
    expect(await created.json()).toMatchObject({ id: 1, name: 'Bo' });
    const listed = await petstore.fetch('http://api.test/v1/pets', { headers: bearer(a.keys.free) });
    expect((await listed.json()).map((pet: { name: string }) => pet.name)).toEqual(['Ada']);
    expect((await petstore.pets()).map((pet) => pet.name)).toEqual(['Main']);
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
    expect(petstore.requests).toHaveLength(0);
    a.clock.advance(3_600_000);
    expect(b.clock.now()).toBe(Date.parse('2026-01-01T00:00:00Z'));
    b.verify({ method: 'POST', path: '/v1/pets', status: 201, times: 1 });
  });

  it('spends one sandbox free minute without touching another sandbox quota', async () => {
    const petstore = createTestPetStore();
    const [a, b] = [await petstore.sandbox(), await petstore.sandbox()];
    const list = (key: string) => petstore.fetch('http://api.test/v1/pets', { headers: bearer(key) });
    for (let i = 0; i < 60; i++) await list(a.keys.free);
    expect((await list(a.keys.free)).status).toBe(429);
    expect((await list(b.keys.free)).status).toBe(200);
    a.clock.advance(60_000);
    expect((await list(a.keys.free)).status).toBe(200);
  });

  it('answers 401 to the keys of a deleted sandbox, and refuses one sandbox more than the cap naming it', async () => {
    const petstore = createTestPetStore({ sandboxes: 2 });
    const a = await petstore.sandbox();
    await petstore.sandbox();
    await expect(petstore.sandbox()).rejects.toThrow(/2 sandboxes are open, the most at once \(the sandboxes option\)/);
    await a.delete();
    expect((await petstore.fetch('http://api.test/v1/pets', { headers: bearer(a.keys.free) })).status).toBe(401);
    await expect(petstore.sandbox()).resolves.toBeDefined();
  });

  it('refuses a sandboxes option out of range with a TypeError naming it', () => {
    expect(() => createTestPetStore({ sandboxes: 0 })).toThrow('sandboxes must be a whole number from 1 to 100000');
    expect(() => createTestPetStore({ journal: 1.5 })).toThrow('journal must be a whole number from 1 to 1000000');
  });
});

describe('sandboxes over the admin API in process', () => {
  /** A store whose real clock the test moves. */
  function adminStore(admin: { sandboxes?: number; sandboxIdleMinutes?: number } = {}) {
    let now = Date.parse('2026-03-01T00:00:00Z');
    const petstore = createPetStore({ now: () => now, admin: { token: ADMIN, ...admin } });
    const call = (path: string, init: RequestInit = {}) =>
      petstore.fetch(`http://fake.test${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN}`, ...json, ...init.headers } });
    return { petstore, call, pass: (ms: number) => (now += ms) };
  }

  it('opens a sandbox with 201, its id, a key per plan and its Location', async () => {
    const { call } = adminStore();
    const response = await call('/__admin/sandboxes', { method: 'POST', body: '{}' });
    expect(response.status).toBe(201);
    const { id, keys } = await response.json();
    expect(response.headers.get('location')).toBe(`/__admin/sandboxes/${id}`);
    expect(Object.keys(keys)).toEqual(['free', 'pro', 'business']);
    expect(keys.free).toMatch(new RegExp(`^psbx_${id}_free_`));
  });

  it('deletes a sandbox no one used for the idle minutes, on the real clock, not the worlds clocks', async () => {
    const { petstore, call, pass } = adminStore({ sandboxIdleMinutes: 5 });
    const { id, keys } = await (await call('/__admin/sandboxes', { method: 'POST', body: '{}' })).json();
    const kept = await (await call('/__admin/sandboxes', { method: 'POST', body: '{}' })).json();
    await call('/__admin/clock', { method: 'POST', body: JSON.stringify({ advanceMs: 3_600_000 }) });
    pass(4 * 60_000);
    expect((await petstore.fetch('http://fake.test/v1/pets', { headers: bearer(kept.keys.free) })).status).toBe(200);
    pass(60_000);
    expect((await call(`/__admin/sandboxes/${id}/pets`)).status).toBe(404);
    expect((await petstore.fetch('http://fake.test/v1/pets', { headers: bearer(keys.free) })).status).toBe(401);
    expect((await (await call('/__admin/sandboxes')).json()).map((sandbox: { id: string }) => sandbox.id)).toEqual([kept.id]);
  });

  it('answers 409 naming the cap to one sandbox too many', async () => {
    const { call } = adminStore({ sandboxes: 1 });
    await call('/__admin/sandboxes', { method: 'POST', body: '{}' });
    const refused = await call('/__admin/sandboxes', { method: 'POST', body: '{}' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      code: 'too_many_sandboxes',
      message: expect.stringContaining('There are already 1 sandboxes, the most at once (--sandboxes'),
      status: 409,
    });
  });

  it('answers a 400 naming the pet and field of a bad seed, and opens nothing', async () => {
    const { call } = adminStore();
    const refused = await call('/__admin/sandboxes', { method: 'POST', body: JSON.stringify({ seed: [{ name: 'Rex', categoryId: 1 }, { name: 'Tom' }] }) });
    expect(refused.status).toBe(400);
    expect((await refused.json()).details).toEqual([{ field: 'seed.1.categoryId', message: expect.any(String) }]);
    const unknown = await call('/__admin/sandboxes', { method: 'POST', body: JSON.stringify({ pets: [] }) });
    expect((await unknown.json()).details).toEqual([{ field: 'pets', message: 'is not a field of a new sandbox (only "seed")' }]);
    expect(await (await call('/__admin/sandboxes')).json()).toEqual([]);
  });

  it('answers a JSON 404 for the admin routes of a deleted sandbox', async () => {
    const { call } = adminStore();
    const { id } = await (await call('/__admin/sandboxes', { method: 'POST', body: '{}' })).json();
    expect((await call(`/__admin/sandboxes/${id}`, { method: 'DELETE' })).status).toBe(204);
    const gone = await call(`/__admin/sandboxes/${id}/seed`, { method: 'POST', body: '[]' });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 'not_found', message: expect.stringContaining(`There is no sandbox "${id}"`) });
  });
});
