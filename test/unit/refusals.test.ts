/** What a counted caller reads: the quota headers of an answer, a 429's Retry-After and message, through the handler on a fixed clock. */
import { describe, expect, it } from 'vitest';
import { createPetStore, type LimitStore, type Plan } from '../../compose/index.ts';
import { memoryLimitStore } from '../../stores/memory/index.ts';
import { createTestPetStore } from '../../testing/index.ts';

const KEY = 'refusals-key-0123456789';

/** A store whose one key is on `quota`, its clock at `start` until the test moves it. */
function storeAt(start: string, quota: Plan, limits: { banThreshold?: number; banDurationMs?: number; limitStore?: LimitStore } = {}) {
  let now = Date.parse(start);
  const petstore = createPetStore({ apiKeys: { [KEY]: quota }, now: () => now, onError: () => {}, ...limits });
  return {
    get: () => petstore.fetch('http://localhost/v1/pets', { headers: { authorization: `Bearer ${KEY}` } }),
    advance: (ms: number) => void (now += ms),
    set: (time: string) => void (now = Date.parse(time)),
  };
}

/** The quota headers of `response`, by lower-case name. */
function quotaHeadersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => /^(retry-after|x-ratelimit-|ratelimit)/.test(name)));
}

/** Sends `count` requests and expects each to be admitted. */
async function spend(store: ReturnType<typeof storeAt>, count: number) {
  for (let i = 0; i < count; i++) expect((await store.get()).status).toBe(200);
}

describe('an admitted request', () => {
  it("tells the plan's policy, and what is left of the window that binds first, in every quota header", async () => {
    const store = storeAt('2026-11-22T10:00:15Z', { perMinute: 5, perDay: 100 });
    await spend(store, 1);
    expect(quotaHeadersOf(await store.get())).toEqual({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '3',
      'x-ratelimit-reset': String(Date.parse('2026-11-22T10:01:00Z') / 1000),
      'ratelimit-policy': '"minute";q=5;w=60, "day";q=100;w=86400',
      ratelimit: '"minute";r=3;t=45, "day";r=98;t=50385',
    });
  });

  it.each([
    ['free', '"minute";q=60;w=60, "day";q=1000;w=86400'],
    ['pro', '"minute";q=300;w=60, "day";q=10000;w=86400'],
    ['business', '"minute";q=1000;w=60, "day";q=100000;w=86400'],
  ] as const)('tells the %s plan its quotas in RateLimit-Policy', async (plan, policy) => {
    const store = storeAt('2026-11-22T10:00:15Z', plan);
    expect((await store.get()).headers.get('ratelimit-policy')).toBe(policy);
  });

  it('starts a fresh minute at second :00 exactly', async () => {
    const store = storeAt('2026-11-22T10:00:59.999Z', { perMinute: 1, perDay: 100 });
    await spend(store, 1);
    store.advance(1);
    const next = await store.get();
    expect([next.status, next.headers.get('ratelimit')]).toEqual([200, '"minute";r=0;t=60, "day";r=98;t=50340']);
  });

  it('counts in the minute a clock set back now shows', async () => {
    const store = storeAt('2026-11-22T10:05:15Z', { perMinute: 5, perDay: 100 });
    await spend(store, 1);
    store.set('2026-11-22T10:04:15Z');
    const earlier = await store.get();
    expect(earlier.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-22T10:05:00Z') / 1000));
    expect(earlier.headers.get('ratelimit')).toBe('"minute";r=4;t=45, "day";r=98;t=50145');
  });

  it('admits a caller whose ban has ended by the API clock, though the store still reports it, as a shared store may', async () => {
    const memory = memoryLimitStore();
    const endedBan: LimitStore = {
      take: async (subject, windows, now) => ({ ...(await memory.take(subject, windows, now)), bannedUntil: now }),
      reject: (subject, window, now) => memory.reject(subject, window, now),
      ban: (subject, until, now) => memory.ban(subject, until, now),
    };
    const store = storeAt('2026-11-22T10:00:15Z', { perMinute: 5, perDay: 100 }, { limitStore: endedBan });
    await spend(store, 1);
  });
});

describe('two keys', () => {
  it('count each in its own quota: one spent leaves the other whole', async () => {
    const petstore = createPetStore({ apiKeys: { 'key-a-0123456789': { perMinute: 1, perDay: 5 }, 'key-b-0123456789': { perMinute: 1, perDay: 5 } } });
    const get = (key: string) => petstore.fetch('http://localhost/v1/pets', { headers: { authorization: `Bearer ${key}` } });
    expect((await get('key-a-0123456789')).status).toBe(200);
    expect((await get('key-a-0123456789')).status).toBe(429);
    expect((await get('key-b-0123456789')).status).toBe(200);
  });
});

describe('a refused request', () => {
  it('tells a caller who has spent the minute and the day to wait until midnight UTC, in Retry-After and in the message', async () => {
    const store = storeAt('2026-11-22T23:00:15Z', { perMinute: 2, perDay: 2 });
    await spend(store, 2);
    const refused = await store.get();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3585');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-23T00:00:00Z') / 1000));
    expect(await refused.json()).toEqual({ code: 'rate_limited', message: 'Rate limit exceeded; retry in 3585 seconds.', status: 429 });
  });

  it('tells a caller who has spent only the minute to wait for the next minute', async () => {
    const store = storeAt('2026-11-22T10:00:15Z', { perMinute: 2, perDay: 100 });
    await spend(store, 2);
    const refused = await store.get();
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(await refused.json()).toEqual({ code: 'rate_limited', message: 'Rate limit exceeded; retry in 45 seconds.', status: 429 });
  });

  it('tells a banned caller how many seconds of the ban are left, in Retry-After and in the message', async () => {
    const store = storeAt('2026-11-22T10:00:15Z', { perMinute: 1, perDay: 100 }, { banThreshold: 1, banDurationMs: 600_000 });
    await spend(store, 1);
    expect((await store.get()).status).toBe(429);
    const banned = await store.get();
    expect(quotaHeadersOf(banned)).toEqual({
      'retry-after': '600',
      'x-ratelimit-limit': '1',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Date.parse('2026-11-22T10:10:15Z') / 1000),
      'ratelimit-policy': '"minute";q=1;w=60, "day";q=100;w=86400',
      ratelimit: '"minute";r=0;t=600, "day";r=99;t=50385',
    });
    expect(await banned.json()).toEqual({ code: 'key_banned', message: 'Too many requests after being limited; banned for 600 more seconds.', status: 429 });
    store.advance(100_500);
    const later = await store.get();
    expect(later.headers.get('retry-after')).toBe('500');
    expect(await later.json()).toEqual({ code: 'key_banned', message: 'Too many requests after being limited; banned for 500 more seconds.', status: 429 });
  });

  it('bans no caller whose refusals, each window under the threshold, add up past it over two minutes', async () => {
    const store = storeAt('2026-11-22T10:00:15Z', { perMinute: 1, perDay: 100 }, { banThreshold: 2 });
    for (const minute of [1, 2]) {
      await spend(store, 1);
      for (const refusal of [1, 2]) {
        const refused = await store.get();
        expect({ minute, refusal, code: (await refused.json()).code }).toEqual({ minute, refusal, code: 'rate_limited' });
      }
      store.advance(60_000);
    }
  });
});

describe('an injected 429', () => {
  it('tells when the spent minute resets, Retry-After seconds from now, in X-RateLimit-Reset and RateLimit', async () => {
    const store = createTestPetStore({ start: '2026-11-22T10:00:15Z' });
    store.faults.failNext(1, { status: 429, retryAfterSeconds: 30 });
    const refused = await store.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${store.keys.free}` } });
    expect(refused.status).toBe(429);
    expect(Object.fromEntries([...refused.headers].filter(([name]) => /^(retry-after|x-ratelimit-|ratelimit)/.test(name)))).toEqual({
      'retry-after': '30',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Date.parse('2026-11-22T10:00:45Z') / 1000),
      'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      ratelimit: '"minute";r=0;t=30, "day";r=1000;t=50385',
    });
  });
});
