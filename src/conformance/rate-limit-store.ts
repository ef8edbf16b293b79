/** The RateLimitStore conformance suite: every shared or local store must pass it. */
import { describe, expect, it } from 'vitest';
import { quotaWindows } from '../rate-limit/limiter.ts';
import type { RateLimitStore } from '../rate-limit/store.ts';

/** Makes a fresh, empty store for one test. */
export type MakeRateLimitStore = () => RateLimitStore | Promise<RateLimitStore>;

const T0 = Date.parse('2026-11-22T10:00:00Z');
const free = { perMinute: 60, perDay: 1000 };

/**
 * Defines a vitest suite proving `makeStore`'s stores keep the {@link RateLimitStore} contract.
 *
 * @example
 * describeRateLimitStoreConformance('my store', () => myRateLimitStore(freshConnection()));
 */
export function describeRateLimitStoreConformance(name: string, makeStore: MakeRateLimitStore): void {
  describe(`RateLimitStore conformance: ${name}`, () => {
    it('admits exactly the limit of 300 concurrent takes, counting nothing for refusals', async () => {
      const store = await makeStore();
      const windows = quotaWindows(T0, free);
      const results = await Promise.all(Array.from({ length: 300 }, () => store.take('s', windows, T0)));
      expect(results.filter((r) => r.admitted)).toHaveLength(60);
      expect(results.filter((r) => !r.admitted).every((r) => r.used[0] === 60)).toBe(true);
      const next = T0 + 60_000;
      expect(await store.take('s', quotaWindows(next, free), next)).toMatchObject({ admitted: true, used: [1, 61] });
    }, 30_000);

    it('starts fresh counts in a new window and keeps subjects apart', async () => {
      const store = await makeStore();
      await store.take('a', quotaWindows(T0, free), T0);
      expect(await store.take('b', quotaWindows(T0, free), T0)).toMatchObject({ admitted: true, used: [1, 1] });
      const tomorrow = T0 + 86_400_000;
      expect(await store.take('a', quotaWindows(tomorrow, free), tomorrow)).toMatchObject({ admitted: true, used: [1, 1] });
    });

    it('refuses when any window is full', async () => {
      const store = await makeStore();
      const tiny = { perMinute: 5, perDay: 2 };
      await store.take('s', quotaWindows(T0, tiny), T0);
      await store.take('s', quotaWindows(T0, tiny), T0);
      expect(await store.take('s', quotaWindows(T0, tiny), T0)).toMatchObject({ admitted: false, used: [2, 2] });
    });

    it('counts refusals per window', async () => {
      const store = await makeStore();
      const [minute] = quotaWindows(T0, free);
      expect(await store.reject('s', minute!, T0)).toBe(1);
      expect(await store.reject('s', minute!, T0 + 1)).toBe(2);
      const [next] = quotaWindows(T0 + 60_000, free);
      expect(await store.reject('s', next!, T0 + 60_000)).toBe(1);
    });

    it('holds a ban until it ends, and counts nothing meanwhile', async () => {
      const store = await makeStore();
      await store.ban('s', T0 + 5_000, T0);
      const during = await store.take('s', quotaWindows(T0 + 4_999, free), T0 + 4_999);
      expect(during).toMatchObject({ admitted: false, bannedUntil: T0 + 5_000 });
      expect(await store.take('s', quotaWindows(T0 + 5_000, free), T0 + 5_000)).toMatchObject({ admitted: true, used: [1, 1] });
    });
  });
}
