/** What GET /readyz makes of a store's optional ping and database, through createPetStore: the answers a load balancer's probe gets, for every method, without a key. */
import { describe, expect, it, vi } from 'vitest';
import { createPetStore } from './create-pet-store.ts';
import { manualClock } from '../controls/index.ts';
import { type LimitStore, memoryLimitStore, memoryPetStorage, type PetStorage, type StoreDatabase } from '../src/index.ts';

const POSTGRESQL: StoreDatabase = { system: 'postgresql', name: 'PostgreSQL' };
const REDIS: StoreDatabase = { system: 'redis', name: 'Redis' };
const refused = () => Promise.reject(new Error('ECONNREFUSED'));

/** A memory storage that says it keeps its pets in PostgreSQL, which answers while `up()`. */
const petsInPostgres = (up: () => boolean = () => true): PetStorage => ({
  ...memoryPetStorage(),
  database: POSTGRESQL,
  ping: () => (up() ? Promise.resolve() : refused()),
});

describe('/readyz through createPetStore', () => {
  it('answers GET 503 naming the store that does not answer, and 200 once it does, beside /healthz at the mount root', async () => {
    let up = false;
    const limitStore: LimitStore = { ...memoryLimitStore(), database: REDIS, ping: () => (up ? Promise.resolve() : refused()) };
    const clock = manualClock();
    const petstore = createPetStore({ storage: petsInPostgres(), limitStore, now: clock.now });
    const down = await petstore.fetch(new Request('http://x/api/readyz'), { mountPath: '/api' });
    expect([down.status, down.headers.get('cache-control'), await down.json()]).toEqual([
      503,
      'no-store',
      { code: 'service_unavailable', message: 'Not ready: Redis (rate limits) does not answer.', status: 503 },
    ]);
    up = true;
    clock.advance(1_000);
    const ready = await petstore.fetch(new Request('http://x/api/readyz'), { mountPath: '/api' });
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok' }]);
  });

  it("needs no API key and takes nothing from the caller's quota", async () => {
    const take = vi.fn(() => Promise.reject(new Error('the limit store is not asked')));
    const petstore = createPetStore({ storage: petsInPostgres(), limitStore: { ...memoryLimitStore(), take } });
    const responses = await Promise.all(Array.from({ length: 3 }, () => petstore.fetch('http://x/readyz')));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(take).not.toHaveBeenCalled();
  });

  it('answers HEAD as GET, without a body: 200 while the databases answer, 503 while one does not', async () => {
    let up = true;
    const clock = manualClock();
    const petstore = createPetStore({ storage: petsInPostgres(() => up), now: clock.now });
    const ready = await petstore.fetch('http://x/readyz', { method: 'HEAD' });
    up = false;
    clock.advance(1_000);
    const down = await petstore.fetch('http://x/readyz', { method: 'HEAD' });
    expect([ready.status, await ready.text(), down.status, down.headers.get('cache-control'), await down.text()]).toEqual([200, '', 503, 'no-store', '']);
  });

  it('answers OPTIONS 204 with the methods it serves in Allow, as /healthz does', async () => {
    const petstore = createPetStore();
    const [ready, health] = await Promise.all(['readyz', 'healthz'].map((path) => petstore.fetch(`http://x/${path}`, { method: 'OPTIONS' })));
    expect([ready!.status, ready!.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    expect(ready!.headers.get('allow')).toBe(health!.headers.get('allow'));
  });

  it('answers POST 405 in JSON with Allow, as /healthz does, without asking the databases', async () => {
    const ping = vi.fn(() => Promise.resolve());
    const petstore = createPetStore({ storage: { ...memoryPetStorage(), database: POSTGRESQL, ping } });
    const [ready, health] = await Promise.all(['readyz', 'healthz'].map((path) => petstore.fetch(`http://x/${path}`, { method: 'POST' })));
    expect([ready!.status, ready!.headers.get('allow'), ready!.headers.get('content-type')]).toEqual([405, 'GET, HEAD, OPTIONS', 'application/json']);
    const [readyBody, healthBody] = [await ready!.json(), await health!.json()];
    expect(readyBody).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect(readyBody).toEqual(healthBody);
    expect(ping).not.toHaveBeenCalled();
  });

  it('asks each database once for 100 concurrent GET /readyz, gives that answer for a second, and asks again once the clock has moved a second', async () => {
    let up = true;
    const ping = vi.fn(() => (up ? Promise.resolve() : refused()));
    const clock = manualClock();
    const petstore = createPetStore({ storage: { ...memoryPetStorage(), database: POSTGRESQL, ping }, now: clock.now });
    const readyz = () => petstore.fetch('http://x/readyz');
    const first = await Promise.all(Array.from({ length: 100 }, readyz));
    expect(first.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(ping).toHaveBeenCalledTimes(1);
    up = false;
    clock.advance(999);
    expect((await readyz()).status).toBe(200);
    expect(ping).toHaveBeenCalledTimes(1);
    clock.advance(1);
    const down = await readyz();
    expect([down.status, await down.json()]).toEqual([
      503,
      { code: 'service_unavailable', message: 'Not ready: PostgreSQL (pets) does not answer.', status: 503 },
    ]);
    expect(ping).toHaveBeenCalledTimes(2);
  });

  it('refuses a request to /healthz or /readyz that declares a body with a JSON 413 and Connection: close, without asking the databases', async () => {
    const ping = vi.fn(() => Promise.resolve());
    const petstore = createPetStore({ storage: { ...memoryPetStorage(), database: POSTGRESQL, ping } });
    const withBody = [
      ['healthz', { 'content-length': '1000000000' }],
      ['readyz', { 'content-length': '1' }],
      ['readyz', { 'transfer-encoding': 'chunked' }],
    ] as const;
    for (const [path, headers] of withBody) {
      const response = await petstore.fetch(`http://x/${path}`, { method: 'POST', headers, body: 'x' });
      expect([response.status, response.headers.get('connection'), await response.json()]).toEqual([
        413,
        'close',
        { code: 'payload_too_large', message: `/${path} takes no request body; send the request without one.`, status: 413 },
      ]);
    }
    expect(ping).not.toHaveBeenCalled();
    const empty = await petstore.fetch('http://x/readyz', { headers: { 'content-length': '0' } });
    expect(empty.status).toBe(200);
  });
});
