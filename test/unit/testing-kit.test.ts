/** petstore-service/testing: the manual clock, fault rules, seeding and the request log. */
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { generatedPets } from '../../controls/index.ts';
import { createTestPetStore, type Har, manualClock, matching } from '../../testing/index.ts';

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
    expect(
      await store.seed([
        { name: 'Rex', categoryId: 1 },
        { name: 'Tom', categoryId: 2, status: 'sold', extra: 1 },
      ]),
    ).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
    ]);
    await expect(store.seed([{ name: '', categoryId: 1 }])).rejects.toThrow(/seed: pet 0 is invalid/);
    expect(await store.pets()).toHaveLength(2);
  });

  it('seeds generated pets, exactly those generatedPets gives, and names what is wrong with a generate', async () => {
    const store = createTestPetStore();
    const seeded = await store.seed({ generate: { count: 25, seed: 7 } });
    expect(seeded).toEqual(generatedPets({ count: 25, seed: 7 }).map((pet, index) => ({ id: index + 1, ...pet })));
    const refusal = (input: unknown) => store.seed(input as never).catch((error: unknown) => error as TypeError);
    expect(await refusal({ generate: { count: 0 } })).toEqual(new TypeError('seed: generate.count must be a whole number from 1 to 10000'));
    expect(await refusal({ generate: { count: 3, seed: 2 ** 32 } })).toEqual(new TypeError('seed: generate.seed must be a whole number from 0 to 4294967295'));
    expect(await refusal({ generate: { count: 3 }, pets: [] })).toEqual(new TypeError('seed: pets is not a field of a seed: give "generate" alone'));
    expect(await refusal({ name: 'Rex', categoryId: 1 })).toEqual(
      new TypeError('seed: must be a JSON array of pets, each like a POST /pets body, or {"generate": {"count": 25, "seed": 7}}'),
    );
    expect(await store.pets()).toEqual(seeded);
  });

  it('draws the delays of a range from randomSeed: the same every run, and again after reset()', async () => {
    const delays = async (store: ReturnType<typeof createTestPetStore>) => {
      const timers = vi.spyOn(globalThis, 'setTimeout');
      store.faults.delayNext(10, { min: 0, max: 3 });
      for (let i = 0; i < 10; i++) await list(store);
      const chosen = timers.mock.calls.map(([, ms]) => ms);
      timers.mockRestore();
      return chosen;
    };
    const store = createTestPetStore({ randomSeed: 7 });
    const first = await delays(store);
    expect(first.length).toBeGreaterThan(0);
    expect(await delays(createTestPetStore({ randomSeed: 7 }))).toEqual(first);
    await store.reset();
    expect(await delays(store)).toEqual(first);
    expect(await delays(createTestPetStore({ randomSeed: 8 }))).not.toEqual(first);
    expect(() => createTestPetStore({ randomSeed: -1 })).toThrow(new TypeError('randomSeed must be a whole number from 0 to 4294967295, got -1'));
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
    for (const key of Object.values(store.keys))
      expect((await store.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('names itself and its own options, start among them, for a misspelt option', () => {
    const message = (() => {
      try {
        createTestPetStore({ strat: 1 } as never);
      } catch (error) {
        return error instanceof TypeError && error.message;
      }
    })();
    expect(message).toMatch(/^createTestPetStore: unknown option "strat" \(did you mean "start"\?\); the options are apiKeys, basePath, /);
    expect(message).toMatch(/, start, sandboxes, sandboxIdleMinutes, journal, journalMiB, (pets, )?randomSeed$/);
    expect(message).not.toMatch(/\b(now|storage|limitStore)\b/);
    expect(() => createTestPetStore({ randomSeeds: 1 } as never)).toThrow('createTestPetStore: unknown option "randomSeeds" (did you mean "randomSeed"?)');
  });

  it.each([
    [
      'now',
      "createTestPetStore: now is the test store's own (its manual clock): give start for where the clock starts, and move it with petstore.clock.advance() or set()",
    ],
    [
      'storage',
      "createTestPetStore: storage is the test store's own (memory, which seed() and reset() work on): give pets with petstore.seed(), or use createPetStore({ storage }) to run your own store",
    ],
    [
      'limitStore',
      "createTestPetStore: limitStore is the test store's own (memory, which reset() clears and its clock moves): use createPetStore({ limitStore }) to run your own store",
    ],
  ])('refuses %s, which the test store owns, saying what to use instead', (name, message) => {
    expect(() => createTestPetStore({ [name]: {} } as never)).toThrow(new TypeError(message));
  });

  it('has a fetch that is exactly the global fetch', () => {
    const store = createTestPetStore();
    expectTypeOf(store.fetch).toEqualTypeOf<typeof fetch>();
    const asGlobal: typeof fetch = store.fetch;
    expect(typeof asGlobal).toBe('function');
  });

  it("takes a host's { clientAddress } when called as a handler, so anonymous callers are limited per address", async () => {
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
    store.faults.inject({ status: 503, method: 'POST', path: /^\/v1\/pets$/, times: 'always', retryAfterSeconds: 7 });
    expect((await list(store)).status).toBe(200);
    const post = await store.fetch('http://api.test/v1/pets', { method: 'POST', headers: { authorization: `Bearer ${store.keys.pro}` }, body: '{}' });
    expect(post.status).toBe(503);
    expect(post.headers.get('retry-after')).toBe('7');
    store.faults.clear();
    expect(store.faults.pending).toBe(0);
  });

  it("answers any status from 400 to 599 with the Error body the API uses for it and that status's headers", async () => {
    const store = createTestPetStore();
    const cases: [number, string, Record<string, string | null>][] = [
      [401, 'unauthorized', { 'www-authenticate': 'Bearer realm="petstore"' }],
      [404, 'not_found', {}],
      [418, 'invalid_request', {}],
      [429, 'rate_limited', { 'retry-after': '30', 'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400', 'x-ratelimit-remaining': '0' }],
      [502, 'internal_error', {}],
      [503, 'service_unavailable', { 'retry-after': '30' }],
    ];
    for (const [status, code, headers] of cases) {
      store.faults.inject({ status, retryAfterSeconds: 30 });
      const response = await store.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${store.keys.free}` } });
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ code, message: `Injected fault: ${status} ${code}.`, status });
      for (const [name, value] of Object.entries(headers)) expect([status, name, response.headers.get(name)]).toEqual([status, name, value]);
    }
    // A pro key's 429 tells its own plan.
    store.faults.inject({ status: 429, code: 'key_banned', message: 'Banned for a while.' });
    const banned = await list(store);
    expect(await banned.json()).toEqual({ code: 'key_banned', message: 'Banned for a while.', status: 429 });
    expect(banned.headers.get('ratelimit-policy')).toBe('"minute";q=1000000;w=60, "day";q=1000000000;w=86400');
  });

  it('resets the connection: fetch rejects with a TypeError as on a network error, and the journal says status 0', async () => {
    const store = createTestPetStore();
    store.faults.inject({ network: 'reset', method: 'POST' });
    const create = store.fetch('http://api.test/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${store.keys.pro}`, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    });
    await expect(create).rejects.toThrow(TypeError);
    expect(store.requests.map((r) => [r.method, r.status])).toEqual([['POST', 0]]);
    expect(await store.pets()).toEqual([]);
  });

  it('hangs a request until the client aborts, then fetch rejects with the abort reason', async () => {
    const store = createTestPetStore();
    store.faults.inject({ network: 'hang' });
    const controller = new AbortController();
    const hanging = store.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${store.keys.pro}` }, signal: controller.signal });
    let settled = false;
    void hanging.catch(() => {}).finally(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    controller.abort(new DOMException('gave up', 'AbortError'));
    await expect(hanging).rejects.toMatchObject({ name: 'AbortError', message: 'gave up' });
  });

  it('refuses a fault that cannot work with a TypeError naming the field, instead of answering 500', () => {
    const store = createTestPetStore();
    expect(() => store.faults.inject({ status: 200 })).toThrow('faults.inject: status must be an integer from 400 to 599');
    expect(() => store.faults.inject({ status: 503, network: 'reset' })).toThrow('status must be left out with network');
    expect(() => store.faults.inject({ network: 'drop' as 'reset' })).toThrow('network must be "reset" or "hang"');
    expect(() => store.faults.inject({ times: 0, status: 500 })).toThrow('times must be a positive integer or "always"');
    expect(() => store.faults.inject({ status: 500, probability: 2 })).toThrow('probability must be a number from 0 to 1');
    expect(() => store.faults.inject({ method: 'GET' })).toThrow('status, network or delayMs must be given');
    expect(() => store.faults.inject({ stauts: 500 } as never)).toThrow('faults.inject: unknown option "stauts" (did you mean "status"?)');
    expect(store.faults.pending).toBe(0);
  });
});

describe('reset()', () => {
  it('ends 20 creates held by a delay with a JSON 503 and stores none of them, and the journal starts empty', async () => {
    const store = createTestPetStore();
    store.faults.delayNext(20, 60_000, { method: 'POST' });
    const creates = Array.from({ length: 20 }, (_, i) =>
      store.fetch('http://api.test/v1/pets', {
        method: 'POST',
        headers: { authorization: `Bearer ${store.keys.pro}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `ghost ${i}`, categoryId: 1 }),
      }),
    );
    // Until every create is held by the delay (each one uses up one of the rule's 20 requests).
    while (store.faults.pending > 0) await new Promise((resolve) => setImmediate(resolve));
    await store.reset();
    const responses = await Promise.all(creates);
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(503));
    expect(await responses[0]!.json()).toEqual({ code: 'service_unavailable', message: 'The fake backend was reset while this request waited.', status: 503 });
    expect(await store.pets()).toEqual([]);
    expect(store.requests).toEqual([]);
    expect(store.faults.pending).toBe(0);
  });

  it('also stops a create that arrived before the reset but had not reached the store yet', async () => {
    const store = createTestPetStore();
    const create = store.fetch('http://api.test/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${store.keys.pro}`, 'content-type': 'application/json' },
      body: '{"name":"late","categoryId":1}',
    });
    await store.reset();
    expect((await create).status).toBe(503);
    expect(await store.pets()).toEqual([]);
  });
});

describe('the hooks of a test store', () => {
  it('see every request, injected faults included', async () => {
    const seen: number[] = [];
    const store = createTestPetStore({ onResponse: ({ response }) => void seen.push(response.status) });
    store.faults.failNext(1, { status: 502 });
    await list(store);
    await list(store);
    expect(seen).toEqual([502, 200]);
  });
});

describe('verification', () => {
  it('finds exchanges with matching(), and verify() passes on the exact count', async () => {
    const store = createTestPetStore();
    await list(store);
    await list(store, '/v1/pets?limit=2');
    await list(store, '/v1/pets/9');
    expect(store.requests.filter(matching({ method: 'get', path: '/v1/pets' }))).toHaveLength(2);
    expect(store.requests.find(matching({ status: 404 }))).toMatchObject({ path: '/v1/pets/9', query: '', method: 'GET' });
    expect(store.requests[1]).toMatchObject({ path: '/v1/pets', query: 'limit=2', requestHeaders: { authorization: 'Bearer [redacted]' } });
    expect(() => store.verify({ method: 'GET', path: /^\/v1\/pets/, times: 3 })).not.toThrow();
  });

  it('throws a readable diff when the count is wrong: the expectation, and each recorded request with matches marked', async () => {
    const store = createTestPetStore();
    await list(store);
    await list(store, '/v1/pets/9');
    expect(() => store.verify({ method: 'POST', path: '/v1/pets', times: 1 })).toThrow(
      ['Expected 1 request(s) matching POST /v1/pets *, got 0.', 'Recorded (2, + marks a match):', '    GET /v1/pets -> 200', '    GET /v1/pets/9 -> 404'].join(
        '\n',
      ),
    );
    expect(() => store.verify({ path: '/v1/pets/9', times: 0 })).toThrow('  + GET /v1/pets/9 -> 404');
  });

  it('gives the journal as HAR 1.2 with har(), taking the filters GET /__admin/requests takes, a sandbox its own', async () => {
    const store = createTestPetStore({ start: '2026-01-01T00:00:00Z' });
    await list(store);
    store.clock.advance(60_000);
    await list(store, '/v1/pets/9');
    const sandbox = await store.sandbox();
    await store.fetch('http://api.test/v1/pets?limit=1', { headers: { authorization: `Bearer ${sandbox.keys.free}` } });
    const calls = (har: Har) => har.log.entries.map(({ request, response }) => `${request.method} ${request.url} ${response.status}`);
    const har: Har = store.har();
    expect([har.log.version, har.log.creator.name]).toEqual(['1.2', 'petstore-service']);
    expect(calls(har)).toEqual(['GET http://api.test/v1/pets 200', 'GET http://api.test/v1/pets/9 404']);
    expect(har.log.entries[0]!.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [redacted]' });
    expect(calls(store.har({ status: 404 }))).toEqual(['GET http://api.test/v1/pets/9 404']);
    expect(calls(store.har({ since: Date.parse('2026-01-01T00:01:00Z') }))).toEqual(['GET http://api.test/v1/pets/9 404']);
    expect(calls(store.har({ method: 'get', path: '/v1/pets', limit: 1 }))).toEqual(['GET http://api.test/v1/pets 200']);
    expect(calls(sandbox.har())).toEqual(['GET http://api.test/v1/pets?limit=1 200']);
  });

  it('says which faults never applied', async () => {
    const store = createTestPetStore();
    store.faults.failNext(1, { status: 503, method: 'DELETE' });
    expect(() => store.assertNoPendingFaults()).toThrow('1 fault(s) never applied:\n  {"status":503,"method":"DELETE","times":1,"id":"fault-1","left":1}');
    store.faults.clear();
    expect(() => store.assertNoPendingFaults()).not.toThrow();
  });
});

describe('a sandbox of the test kit, picked by its selector', () => {
  it('has a selector, and petstore.fetch with it in Petstore-Sandbox or baggage reaches the sandbox with a main-world key', async () => {
    const petstore = createTestPetStore();
    const sandbox = await petstore.sandbox({ seed: [{ name: 'Rex', categoryId: 1 }] });
    expect(sandbox.selector).toMatch(/^pssel_[A-Za-z0-9_-]{32}$/);
    const names = async (headers: Record<string, string>) =>
      (
        (await (await petstore.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${petstore.keys.free}`, ...headers } })).json()) as {
          name: string;
        }[]
      ).map((pet) => pet.name);
    expect(await names({ 'petstore-sandbox': sandbox.selector })).toEqual(['Rex']);
    expect(await names({ baggage: `a=1, petstore.sandbox=${sandbox.selector}` })).toEqual(['Rex']);
    expect(await names({})).toEqual([]);
    await sandbox.delete();
    expect(
      (await petstore.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${petstore.keys.free}`, 'petstore-sandbox': sandbox.selector } }))
        .status,
    ).toBe(404);
  });
});

describe('bans in a test store', () => {
  it("answers a banned caller's 429 key_banned at once, with no timer to wait for (banHoldMs 0 unless given)", async () => {
    // With the timers faked, a held answer would wait for ever: this one must not be held.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const petstore = createTestPetStore({ apiKeys: { 'ban-me-0123456789': { perMinute: 1, perDay: 100 } }, banThreshold: 0 });
      const get = () => petstore.fetch('http://api.test/v1/pets', { headers: { authorization: 'Bearer ban-me-0123456789' } });
      expect((await get()).status).toBe(200);
      for (let i = 0; i < 2; i++) {
        const banned = await get();
        expect([banned.status, ((await banned.json()) as { code: string }).code]).toEqual([429, 'key_banned']);
      }
    } finally {
      vi.useRealTimers();
    }
  });
});
