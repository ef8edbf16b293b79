/** memoryRateLimitStore: atomic check-and-take, fresh windows, bans, and its maxKeys bound. */
import { describe, expect, it } from 'vitest';
import { memoryRateLimitStore } from '../../src/index.ts';
import { quotaWindows } from '../../src/rate-limit/limiter.ts';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const free = { perMinute: 60, perDay: 1000 };

describe('memoryRateLimitStore', () => {
  it('admits exactly the limit of 500 concurrent takes and counts nothing for refusals', async () => {
    const store = memoryRateLimitStore();
    const windows = quotaWindows(T0, free);
    const results = await Promise.all(Array.from({ length: 500 }, () => store.take('k', windows, T0)));
    expect(results.filter((r) => r.admitted)).toHaveLength(60);
    const next = quotaWindows(T0 + 60_000, free);
    expect(await store.take('k', next, T0 + 60_000)).toEqual({ admitted: true, used: [1, 61] });
  });

  it('starts a fresh count when a window has ended', async () => {
    const store = memoryRateLimitStore();
    await store.take('k', quotaWindows(T0, free), T0);
    const tomorrow = T0 + 86_400_000;
    expect(await store.take('k', quotaWindows(tomorrow, free), tomorrow)).toEqual({ admitted: true, used: [1, 1] });
  });

  it('counts refusals per window and bans until the given time', async () => {
    const store = memoryRateLimitStore();
    const [minute] = quotaWindows(T0, free);
    expect(await store.reject('k', minute!, T0)).toBe(1);
    expect(await store.reject('k', minute!, T0 + 1)).toBe(2);
    const [nextMinute] = quotaWindows(T0 + 60_000, free);
    expect(await store.reject('k', nextMinute!, T0 + 60_000)).toBe(1);
    await store.ban('k', T0 + 120_000, T0 + 60_000);
    expect(await store.take('k', quotaWindows(T0 + 119_999, free), T0 + 119_999)).toMatchObject({ admitted: false, bannedUntil: T0 + 120_000 });
    expect((await store.take('k', quotaWindows(T0 + 120_000, free), T0 + 120_000)).admitted).toBe(true);
  });

  it('holds at most maxKeys entries after 200,000 distinct subjects', async () => {
    const store = memoryRateLimitStore({ maxKeys: 5_000 });
    const windows = quotaWindows(T0, free);
    for (let i = 0; i < 200_000; i++) await store.take(`subject-${i}`, windows, T0);
    expect(store.size).toBe(5_000);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects maxKeys %s with a TypeError', (maxKeys) => {
    expect(() => memoryRateLimitStore({ maxKeys })).toThrow(TypeError);
  });
});
