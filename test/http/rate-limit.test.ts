/** Rate limits on a real server: windows, 429 + Retry-After, bans, anonymous callers, headers everywhere. */
import { describe, expect, it } from 'vitest';
import type { PetStorage, Plan } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { manualClock } from '../../testing/index.ts';
import { expectError, postPet, startServer, type TestServer } from '../helpers/server.ts';

async function serverFor(plan: Plan, options: Parameters<typeof startServer>[0] = {}) {
  return startServer({ apiKeys: { 'plan-key': plan }, ...options });
}
const asKey = { authorization: 'Bearer plan-key' };
const list = (server: TestServer) => server.api('/pets', { headers: asKey });

function quota(response: Response) {
  return {
    limit: Number(response.headers.get('x-ratelimit-limit')),
    remaining: Number(response.headers.get('x-ratelimit-remaining')),
    reset: Number(response.headers.get('x-ratelimit-reset')),
    retryAfter: response.headers.get('retry-after'),
  };
}

describe('rate limits', () => {
  it('admits exactly 60 requests of a free key in a minute window; the 61st is 429 with Retry-After to the window end', async () => {
    const clock = manualClock('2026-11-22T10:00:15Z');
    const server = await serverFor('free', { now: clock.now });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const response = await list(server);
      statuses.push(response.status);
      expect(quota(response)).toMatchObject({ limit: 60, remaining: 59 - i });
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await list(server);
    expect(quota(refused)).toEqual({ limit: 60, remaining: 0, reset: Date.parse('2026-11-22T10:01:00Z') / 1000, retryAfter: '45' });
    await expectError(refused, 429, 'rate_limited');

    clock.set('2026-11-22T10:00:59.001Z');
    expect(quota(await list(server)).retryAfter).toBe('1');
    clock.set('2026-11-22T10:01:00Z');
    const next = await list(server);
    expect(next.status).toBe(200);
    expect(quota(next)).toMatchObject({ limit: 60, remaining: 59 });
  });

  it('refuses the 1,001st request of a free key in a UTC day until 00:00 UTC, and refusals use no quota', async () => {
    const clock = manualClock('2026-11-22T20:00:00Z');
    const server = await serverFor('free', { now: clock.now });
    let admitted = 0;
    for (let minute = 0; admitted < 1000; minute++) {
      clock.set(new Date(Date.parse('2026-11-22T20:00:00Z') + minute * 60_000).toISOString());
      for (let i = 0; i < 50 && admitted < 1000; i++) {
        expect((await list(server)).status).toBe(200);
        admitted++;
      }
    }
    const last = await list(server);
    expect(quota(last)).toMatchObject({ limit: 1000, remaining: 0, reset: Date.parse('2026-11-23T00:00:00Z') / 1000 });
    expect(Number(quota(last).retryAfter)).toBe((Date.parse('2026-11-23T00:00:00Z') - clock.now()) / 1000);
    await expectError(last, 429, 'rate_limited');

    clock.set('2026-11-22T23:59:59Z');
    expect(quota(await list(server))).toMatchObject({ remaining: 0, retryAfter: '1' });
    clock.set('2026-11-23T00:00:00Z');
    const nextDay = await list(server);
    expect(nextDay.status).toBe(200);
    expect(nextDay.headers.get('ratelimit')).toBe('"minute";r=59;t=60, "day";r=999;t=86400');
  });

  it('does not charge the day for a request the minute window refused', async () => {
    const clock = manualClock('2026-11-22T10:00:00Z');
    const server = await serverFor('free', { now: clock.now });
    for (let i = 0; i < 65; i++) await list(server);
    clock.advance(60_000);
    expect((await list(server)).headers.get('ratelimit')).toBe('"minute";r=59;t=60, "day";r=939;t=50340');
  });

  it.each([
    ['free', 60],
    ['pro', 300],
  ] as const)('admits exactly the plan minute quota of 500 concurrent requests from one %s key', async (plan, expected) => {
    const server = await serverFor(plan, { now: () => Date.parse('2026-11-22T10:00:00Z') });
    const responses = await Promise.all(Array.from({ length: 500 }, () => list(server)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(expected);
    expect(statuses.filter((s) => s === 429)).toHaveLength(500 - expected);
  });

  it('bans a key on its 11th refusal in a window for 15 minutes, through the next window, then lifts the ban', async () => {
    const clock = manualClock('2026-11-22T10:00:30Z');
    const server = await serverFor('free', { now: clock.now });
    for (let i = 0; i < 60; i++) await list(server);
    for (let i = 0; i < 10; i++) await expectError(await list(server), 429, 'rate_limited');
    const banned = await list(server);
    expect(quota(banned)).toMatchObject({ remaining: 0, retryAfter: '900' });
    await expectError(banned, 429, 'key_banned');

    clock.set('2026-11-22T10:01:00Z'); // a fresh minute window: still banned
    const stillBanned = await list(server);
    expect(quota(stillBanned)).toMatchObject({ retryAfter: '870', reset: Date.parse('2026-11-22T10:15:30Z') / 1000 });
    await expectError(stillBanned, 429, 'key_banned');

    clock.set('2026-11-22T10:15:29.999Z');
    await expectError(await list(server), 429, 'key_banned');
    clock.set('2026-11-22T10:15:30Z');
    expect((await list(server)).status).toBe(200);
  });

  it('takes banThreshold and banDurationMs as options', async () => {
    const clock = manualClock('2026-11-22T10:00:00Z');
    const server = await serverFor({ perMinute: 1, perDay: 100 }, { now: clock.now, banThreshold: 1, banDurationMs: 5_000 });
    expect((await list(server)).status).toBe(200);
    await expectError(await list(server), 429, 'rate_limited');
    const banned = await list(server);
    expect(banned.headers.get('retry-after')).toBe('5');
    await expectError(banned, 429, 'key_banned');
  });

  it('limits callers without a valid key by client address: of 100 wrong keys at most 60 get 401, the rest 429', async () => {
    const server = await startServer({ now: () => Date.parse('2026-11-22T10:00:00Z') });
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const response = await server.api('/pets', { headers: { authorization: `Bearer guess-${i}` } });
      expect(quota(response).limit).toBe(60);
      statuses.push(response.status);
    }
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(60);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
  });

  it('limits the public OpenAPI document per client address with the free numbers', async () => {
    const server = await startServer({ now: () => Date.parse('2026-11-22T10:00:00Z') });
    for (let i = 0; i < 60; i++) expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    await expectError(await fetch(`${server.url}/openapi.json`), 429, 'rate_limited');
  });

  it('does not trust X-Forwarded-For by default, and uses clientAddress when given', async () => {
    const server = await startServer({ now: () => Date.parse('2026-11-22T10:00:00Z') });
    for (let i = 0; i < 60; i++) await fetch(`${server.url}/pets`, { headers: { 'x-forwarded-for': `10.0.0.${i}` } });
    await expectError(await fetch(`${server.url}/pets`, { headers: { 'x-forwarded-for': '10.9.9.9' } }), 429, 'rate_limited');

    const proxied = await startServer({ clientAddress: (request) => request.headers.get('x-real-ip') ?? undefined });
    for (let i = 0; i < 61; i++) {
      const response = await fetch(`${proxied.url}/pets`, { headers: { 'x-real-ip': `10.0.0.${i}` } });
      await expectError(response, 401, 'unauthorized');
      expect(quota(response).remaining).toBe(59);
    }
  });

  it('gives every key its own windows', async () => {
    const server = await startServer({ apiKeys: { a: 'free', b: 'free' }, now: () => Date.parse('2026-11-22T10:00:00Z') });
    for (let i = 0; i < 61; i++) await fetch(`${server.url}/pets`, { headers: { authorization: 'Bearer a' } });
    const b = await fetch(`${server.url}/pets`, { headers: { authorization: 'Bearer b' } });
    expect(b.status).toBe(200);
    expect(quota(b).remaining).toBe(59);
  });

  it('advertises both windows of the plan in RateLimit-Policy', async () => {
    const server = await serverFor({ perMinute: 100_000, perDay: 10_000_000 });
    expect((await list(server)).headers.get('ratelimit-policy')).toBe('"minute";q=100000;w=60, "day";q=10000000;w=86400');
    const free = await startServer();
    expect((await fetch(`${free.url}/pets`)).headers.get('ratelimit-policy')).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
  });
});

describe('rate-limit headers on every status the API produces', () => {
  const NOW = Date.parse('2026-11-22T10:00:20Z');
  const failing = memoryPetStorage();
  const brokenStorage: PetStorage = { ...failing, get: async () => Promise.reject(new Error('down')) };
  type Case = [status: number, describe: string, run: (server: TestServer) => Promise<Response>, options?: object];
  const json = { 'content-type': 'application/json', ...asKey };
  const cases: Case[] = [
    [200, 'GET /pets', (s) => list(s)],
    [201, 'POST /pets', (s) => postPet(s, { name: 'Rex', categoryId: 1 }, { headers: asKey })],
    [204, 'OPTIONS /pets', (s) => s.api('/pets', { method: 'OPTIONS', headers: asKey })],
    [400, 'a bad limit', (s) => s.api('/pets?limit=0', { headers: asKey })],
    [401, 'no key', (s) => fetch(`${s.url}/pets`)],
    [404, 'a missing pet', (s) => s.api('/pets/9', { headers: asKey })],
    [405, 'DELETE /pets', (s) => s.api('/pets', { method: 'DELETE', headers: asKey })],
    [410, 'get-by-id after sunset', (s) => s.api('/pets/1', { headers: asKey }), { getPetSunsetAt: new Date(NOW - 1) }],
    [413, 'a huge body', (s) => s.api('/pets', { method: 'POST', headers: json, body: 'x'.repeat(70_000) })],
    [415, 'a text body', (s) => s.api('/pets', { method: 'POST', headers: { ...asKey, 'content-type': 'text/plain' }, body: 'x' })],
    [500, 'a storage failure', (s) => s.api('/pets/1', { headers: asKey }), { storage: brokenStorage }],
  ];

  it.each(cases)('%i (%s) carries consistent X-RateLimit-* and RateLimit headers', async (status, _, run, options = {}) => {
    const server = await serverFor('pro', { now: () => NOW, ...options });
    const response = await run(server);
    expect(response.status).toBe(status);
    const { limit, remaining, reset } = quota(response);
    const expectedLimit = status === 401 ? 60 : 300;
    expect(limit).toBe(expectedLimit);
    expect(remaining).toBe(expectedLimit - 1);
    expect(reset).toBe(Date.parse('2026-11-22T10:01:00Z') / 1000);
    expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"minute";r=${remaining};t=40, "day";r=\\d+;t=\\d+$`));
    expect(response.headers.get('ratelimit-policy')).toMatch(/^"minute";q=\d+;w=60, "day";q=\d+;w=86400$/);
  });

  it.each(['rate_limited', 'key_banned'])('429 %s carries them too, with Remaining 0', async (code) => {
    const server = await serverFor('free', { now: () => NOW, banThreshold: code === 'key_banned' ? 0 : 10 });
    for (let i = 0; i < 60; i++) await list(server);
    const response = await list(server);
    expect(quota(response)).toMatchObject({ limit: 60, remaining: 0 });
    expect(Number(quota(response).reset)).toBeGreaterThan(NOW / 1000);
    expect(response.headers.get('ratelimit')).toMatch(/^"minute";r=0;t=\d+, "day";r=\d+;t=\d+$/);
    await expectError(response, 429, code);
  });
});
