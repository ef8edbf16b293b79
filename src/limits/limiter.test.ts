/** The quota headers on their own: which window binds, and how each is described; and what a banned caller is told, refusal after refusal, as each of its countdowns ticks. */
import { describe, expect, it } from 'vitest';
import { createRateLimiter, quotaHeaders, quotaWindows, refusalHeaders } from './limiter.ts';
import { memoryLimitStore } from './memory-limit-store.ts';

const NOW = Date.parse('2026-11-22T10:00:15Z');
const policy = '"minute";q=60;w=60, "day";q=1000;w=86400';

describe('quotaWindows', () => {
  it('aligns the minute and the day to UTC, so every instance counts in the same windows', () => {
    const [minute, day] = quotaWindows(NOW, { perMinute: 60, perDay: 1000 });
    expect(minute).toEqual({ name: 'minute', limit: 60, start: Date.parse('2026-11-22T10:00:00Z'), end: Date.parse('2026-11-22T10:01:00Z') });
    expect(day).toEqual({ name: 'day', limit: 1000, start: Date.parse('2026-11-22T00:00:00Z'), end: Date.parse('2026-11-23T00:00:00Z') });
  });
});

describe('quotaHeaders', () => {
  const minute = { name: 'minute', limit: 60, reset: Date.parse('2026-11-22T10:01:00Z') };
  const day = { name: 'day', limit: 1000, reset: Date.parse('2026-11-23T00:00:00Z') };

  it('reports the window with the fewest requests left in X-RateLimit-*, and lists it first in RateLimit', () => {
    const headers = quotaHeaders(
      [
        { ...minute, remaining: 59 },
        { ...day, remaining: 12 },
      ],
      NOW,
      policy,
    );
    expect(headers).toEqual({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '12',
      'X-RateLimit-Reset': String(Date.parse('2026-11-23T00:00:00Z') / 1000),
      'RateLimit-Policy': policy,
      RateLimit: '"day";r=12;t=50385, "minute";r=59;t=45',
    });
  });

  it('reports the later reset when two windows have as much left, since waiting for the earlier would not help', () => {
    const headers = quotaHeaders(
      [
        { ...minute, remaining: 0 },
        { ...day, remaining: 0 },
      ],
      NOW,
      policy,
    );
    expect(headers['X-RateLimit-Limit']).toBe('1000');
    expect(headers.RateLimit).toBe('"day";r=0;t=50385, "minute";r=0;t=45');
  });

  it("reports the minute window in the day's last minute, when both have as much left and reset together", () => {
    const lastMinute = Date.parse('2026-11-22T23:59:15Z');
    const midnight = Date.parse('2026-11-23T00:00:00Z');
    const headers = quotaHeaders(
      [
        { ...minute, remaining: 0, reset: midnight },
        { ...day, remaining: 0 },
      ],
      lastMinute,
      policy,
    );
    expect(headers['X-RateLimit-Limit']).toBe('60');
    expect(headers.RateLimit).toBe('"minute";r=0;t=45, "day";r=0;t=45');
  });

  it('orders any number of windows fewest remaining first, and reports a lone window alone', () => {
    const hour = { name: 'hour', limit: 500, reset: Date.parse('2026-11-22T11:00:00Z') };
    const three = quotaHeaders(
      [
        { ...minute, remaining: 30 },
        { ...hour, remaining: 5 },
        { ...day, remaining: 12 },
      ],
      NOW,
      policy,
    );
    expect([three['X-RateLimit-Limit'], three.RateLimit]).toEqual(['500', '"hour";r=5;t=3585, "day";r=12;t=50385, "minute";r=30;t=45']);
    const one = quotaHeaders([{ ...day, remaining: 7 }], NOW, policy);
    expect([one['X-RateLimit-Remaining'], one.RateLimit]).toEqual(['7', '"day";r=7;t=50385']);
  });
});

describe('a banned caller', () => {
  const quota = { perMinute: 1, perDay: 100 };
  /** A limiter on a manual clock that bans at the first refusal, for two minutes unless told otherwise. */
  function banningLimiter(banDurationMs = 120_000) {
    const clock = { now: NOW };
    const limit = createRateLimiter({ limitStore: memoryLimitStore(), now: () => clock.now, banThreshold: 0, banDurationMs });
    /** What `subject` is told at `time`: Retry-After, the message, and the RateLimit field. */
    const told = async (subject: string, time: number) => {
      clock.now = time;
      const { headers, refusal } = await limit(subject as `address:${string}`, quota);
      return [headers['Retry-After'], refusal?.message, headers.RateLimit];
    };
    return { limit, told };
  }
  const banned = (seconds: number) => `Too many requests after being limited; banned for ${seconds} more seconds.`;

  it('is told the seconds left of its ban on every refusal, as they run down, in a new minute too', async () => {
    const { told } = banningLimiter();
    await told('address:192.0.2.1', NOW);
    expect(await told('address:192.0.2.1', NOW)).toEqual(['120', banned(120), '"minute";r=0;t=120, "day";r=99;t=50385']);
    expect(await told('address:192.0.2.1', NOW + 400)).toEqual(['120', banned(120), '"minute";r=0;t=120, "day";r=99;t=50385']);
    expect(await told('address:192.0.2.1', NOW + 1_000)).toEqual(['119', banned(119), '"minute";r=0;t=119, "day";r=99;t=50384']);
    expect(await told('address:192.0.2.1', NOW + 60_000)).toEqual(['60', banned(60), '"minute";r=0;t=60, "day";r=99;t=50325']);
  });

  it("is told the day's seconds left as they run down, when its ban ends in another second than they do", async () => {
    const { told } = banningLimiter();
    // Banned at 10:00:15.300 until 10:02:15.300: the day's seconds tick at each whole second, the ban's 300 ms later.
    await told('address:192.0.2.1', NOW + 300);
    expect(await told('address:192.0.2.1', NOW + 300)).toEqual(['120', banned(120), '"minute";r=0;t=120, "day";r=99;t=50385']);
    expect(await told('address:192.0.2.1', NOW + 1_100)).toEqual(['120', banned(120), '"minute";r=0;t=120, "day";r=99;t=50384']);
  });

  it('is told the seconds left of a ban shorter than the minute as they run down, while the minute and the day tick apart from them', async () => {
    const { told } = banningLimiter(10_000);
    // Banned at 10:00:15.500 until 10:00:25.500, within the minute that ends at 10:01:00.
    await told('address:192.0.2.1', NOW + 500);
    expect(await told('address:192.0.2.1', NOW + 500)).toEqual(['10', banned(10), '"minute";r=0;t=45, "day";r=99;t=50385']);
    expect(await told('address:192.0.2.1', NOW + 1_100)).toEqual(['10', banned(10), '"minute";r=0;t=44, "day";r=99;t=50384']);
    expect(await told('address:192.0.2.1', NOW + 1_600)).toEqual(['9', banned(9), '"minute";r=0;t=44, "day";r=99;t=50384']);
  });

  it("is told its own day's use when another caller is banned until the same moment", async () => {
    const { told } = banningLimiter();
    // The second caller used one more request today, a minute before.
    await told('address:192.0.2.2', NOW - 60_000);
    for (const subject of ['address:192.0.2.1', 'address:192.0.2.2']) await told(subject, NOW);
    for (const subject of ['address:192.0.2.1', 'address:192.0.2.2']) await told(subject, NOW);
    expect(await told('address:192.0.2.1', NOW)).toEqual(['120', banned(120), '"minute";r=0;t=120, "day";r=99;t=50385']);
    expect(await told('address:192.0.2.2', NOW)).toEqual(['120', banned(120), '"minute";r=0;t=120, "day";r=98;t=50385']);
    expect(await told('address:192.0.2.1', NOW)).toEqual(['120', banned(120), '"minute";r=0;t=120, "day";r=99;t=50385']);
  });

  it("is told its own plan's limits when a caller of another plan is banned until the same moment", async () => {
    const clock = { now: NOW };
    const limit = createRateLimiter({ limitStore: memoryLimitStore(), now: () => clock.now, banThreshold: 0, banDurationMs: 120_000 });
    // The same minute, so both have used one request today when banned: only the plans differ.
    const other = { perMinute: 1, perDay: 200 };
    const spend = async (subject: `key:${string}`, plan: typeof quota) => {
      for (let i = 0; i <= plan.perMinute; i++) await limit(subject, plan);
    };
    await spend('key:one', quota);
    await spend('key:two', other);
    const one = await limit('key:one', quota);
    const two = await limit('key:two', other);
    expect([one.headers['X-RateLimit-Limit'], one.headers['RateLimit-Policy']]).toEqual(['1', '"minute";q=1;w=60, "day";q=100;w=86400']);
    expect([two.headers['X-RateLimit-Limit'], two.headers['RateLimit-Policy']]).toEqual(['1', '"minute";q=1;w=60, "day";q=200;w=86400']);
  });

  it('is told when its own ban ends when another caller was banned a moment before it', async () => {
    const { limit, told } = banningLimiter();
    await told('address:192.0.2.1', NOW);
    await told('address:192.0.2.1', NOW);
    await told('address:192.0.2.2', NOW + 300);
    await told('address:192.0.2.2', NOW + 300);
    const first = await limit('address:192.0.2.1', quota);
    const second = await limit('address:192.0.2.2', quota);
    // Banned at 10:00:15.000 and 10:00:15.300 for two minutes: the ends fall in two different seconds.
    expect(first.headers['X-RateLimit-Reset']).toBe(String(Math.ceil((NOW + 120_000) / 1000)));
    expect(second.headers['X-RateLimit-Reset']).toBe(String(Math.ceil((NOW + 120_300) / 1000)));
  });
});

describe('the ruling on each request', () => {
  /** A limiter on a manual clock over a plan of 2 a minute and 3 a day. */
  function rulingLimiter(banThreshold: number) {
    const clock = { now: NOW };
    const limit = createRateLimiter({ limitStore: memoryLimitStore(), now: () => clock.now, banThreshold, banDurationMs: 120_000 });
    const ruling = async (at: number) => {
      clock.now = at;
      const { ruling, banMs, refusal } = await limit('key:k', { perMinute: 2, perDay: 3 });
      return [ruling, banMs, refusal?.code];
    };
    return ruling;
  }

  it('names none for an admitted request, the minute when the minute is used up, the day when the day is, even with the minute', async () => {
    const ruling = rulingLimiter(10);
    expect(await ruling(NOW)).toEqual([undefined, undefined, undefined]);
    await ruling(NOW);
    expect(await ruling(NOW)).toEqual(['minute', undefined, 'rate_limited']);
    expect(await ruling(NOW + 60_000)).toEqual([undefined, undefined, undefined]);
    expect(await ruling(NOW + 60_000)).toEqual(['day', undefined, 'rate_limited']);
    expect(await ruling(NOW + 120_000)).toEqual(['day', undefined, 'rate_limited']);
  });

  it('names the ban, with its length on the request that started it only', async () => {
    const ruling = rulingLimiter(0);
    await ruling(NOW);
    await ruling(NOW);
    expect(await ruling(NOW)).toEqual(['ban', 120_000, 'key_banned']);
    expect(await ruling(NOW + 1_000)).toEqual(['ban', undefined, 'key_banned']);
  });

  it("answers a banned caller's flood with one answer, made once while nothing in it changes", async () => {
    const limit = createRateLimiter({ limitStore: memoryLimitStore(), now: () => NOW, banThreshold: 0, banDurationMs: 120_000 });
    const quota = { perMinute: 1, perDay: 100 };
    await limit('key:k', quota);
    await limit('key:k', quota);
    const first = await limit('key:k', quota);
    expect(await limit('key:k', quota)).toBe(first);
  });

  it("answers a banned caller's flood with one answer at a minute's very first millisecond too", async () => {
    // The minute's windows are kept from its first millisecond on: made anew there, each refusal's answer would be too.
    const start = Date.parse('2026-11-22T10:00:00Z');
    const limit = createRateLimiter({ limitStore: memoryLimitStore(), now: () => start, banThreshold: 0, banDurationMs: 120_000 });
    const quota = { perMinute: 1, perDay: 100 };
    await limit('key:k', quota);
    await limit('key:k', quota);
    const first = await limit('key:k', quota);
    expect(await limit('key:k', quota)).toBe(first);
  });
});

describe('refusalHeaders', () => {
  it('describes an injected 429 as the minute spent until its Retry-After, the day untouched, with the Retry-After itself', () => {
    // A fault's 429 (controls/faults) takes these headers whole: a client reads its wait from Retry-After.
    expect(refusalHeaders({ perMinute: 60, perDay: 1000 }, NOW, 30)).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String((NOW + 30_000) / 1000),
      'RateLimit-Policy': policy,
      RateLimit: '"minute";r=0;t=30, "day";r=1000;t=50385',
      'Retry-After': '30',
    });
  });
});
