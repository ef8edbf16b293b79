/** The LimitStore conformance suite: every shared or local store must pass it. */
import { describe, expect, it } from 'vitest';
import { type LimitStore, quotaWindows, type Subject } from '../../src/index.ts';

/**
 * Makes a fresh, empty store for one test.
 *
 * @example
 * const makeStore: MakeLimitStore = async () => redisLimitStore(await connect(), { prefix: freshPrefix() });
 */
export type MakeLimitStore = () => LimitStore | Promise<LimitStore>;

/**
 * Settings of {@link describeLimitStoreConformance}.
 *
 * @example
 * const settings: LimitStoreConformanceSettings = { floodAddresses: 200_000 };
 */
export interface LimitStoreConformanceSettings {
  /**
   * How many distinct `address:` subjects the flood case sends (one take and one refusal each).
   * Default 2,000. The case's timeout grows with it: 60 s plus 100 ms an address, at most 10
   * minutes. To make the flood push past a bounded store's limit, give it more than that limit,
   * or make the store with a small one.
   */
  readonly floodAddresses?: number;
}

const T0 = Date.parse('2026-11-22T10:00:00Z');

/**
 * The flood case's safety net, sized by its work: 60 s plus 100 ms an address, at most 10 minutes.
 * A networked store pays for every call (a take on a new Durable Object costs milliseconds of
 * workerd's CPU: BENCHMARKS.md, Findings), so the default flood's 4,000 calls take many seconds of
 * CPU, and minutes of wall time on a busy two-core machine.
 */
const floodTimeout = (addresses: number) => Math.min(60_000 + 100 * addresses, 600_000);
const free = { perMinute: 60, perDay: 1000 };

/**
 * Defines a vitest suite proving `makeStore`'s stores keep the {@link LimitStore} contract.
 *
 * @example
 * describeLimitStoreConformance('my store', () => myLimitStore(freshConnection()));
 */
export function describeLimitStoreConformance(name: string, makeStore: MakeLimitStore, { floodAddresses = 2_000 }: LimitStoreConformanceSettings = {}): void {
  if (!Number.isSafeInteger(floodAddresses) || floodAddresses < 1) throw new TypeError('floodAddresses must be a positive integer');
  const floodSettings = { timeout: floodTimeout(floodAddresses) };
  describe(`LimitStore conformance: ${name}`, () => {
    it('admits exactly the limit of 300 concurrent takes, counting nothing for refusals', async () => {
      const store = await makeStore();
      const windows = quotaWindows(T0, free);
      const results = await Promise.all(Array.from({ length: 300 }, () => store.take('key:s', windows, T0)));
      expect(results.filter((r) => r.admitted)).toHaveLength(60);
      expect(results.filter((r) => !r.admitted).every((r) => r.used[0] === 60)).toBe(true);
      const next = T0 + 60_000;
      expect(await store.take('key:s', quotaWindows(next, free), next)).toMatchObject({ admitted: true, used: [1, 61] });
    }, 30_000);

    it('starts fresh counts in a new window and keeps subjects apart', async () => {
      const store = await makeStore();
      await store.take('key:a', quotaWindows(T0, free), T0);
      expect(await store.take('address:192.0.2.1', quotaWindows(T0, free), T0)).toMatchObject({ admitted: true, used: [1, 1] });
      const tomorrow = T0 + 86_400_000;
      expect(await store.take('key:a', quotaWindows(tomorrow, free), tomorrow)).toMatchObject({ admitted: true, used: [1, 1] });
    });

    it('refuses when any window is full', async () => {
      const store = await makeStore();
      const tiny = { perMinute: 5, perDay: 2 };
      await store.take('key:s', quotaWindows(T0, tiny), T0);
      await store.take('key:s', quotaWindows(T0, tiny), T0);
      expect(await store.take('key:s', quotaWindows(T0, tiny), T0)).toMatchObject({ admitted: false, used: [2, 2] });
    });

    it('counts refusals per window', async () => {
      const store = await makeStore();
      const [minute] = quotaWindows(T0, free);
      expect(await store.reject('key:s', minute!, T0)).toBe(1);
      expect(await store.reject('key:s', minute!, T0 + 1)).toBe(2);
      const [next] = quotaWindows(T0 + 60_000, free);
      expect(await store.reject('key:s', next!, T0 + 60_000)).toBe(1);
    });

    it('holds a ban until it ends, and counts nothing meanwhile', async () => {
      const store = await makeStore();
      await store.ban('key:s', T0 + 5_000, T0);
      const during = await store.take('key:s', quotaWindows(T0 + 4_999, free), T0 + 4_999);
      expect(during).toMatchObject({ admitted: false, bannedUntil: T0 + 5_000 });
      expect(await store.take('key:s', quotaWindows(T0 + 5_000, free), T0 + 5_000)).toMatchObject({ admitted: true, used: [1, 1] });
    });

    it('keeps the later end when a subject is banned twice: a ban is never cut short', async () => {
      const store = await makeStore();
      await store.ban('address:192.0.2.1', T0 + 900_000, T0);
      await store.ban('address:192.0.2.1', T0 + 60_000, T0 + 1);
      const later = T0 + 60_000;
      expect(await store.take('address:192.0.2.1', quotaWindows(later, free), later)).toMatchObject({ admitted: false, bannedUntil: T0 + 900_000 });
    });

    it(`keeps a banned key, a banned address and a key's counts through a flood of ${floodAddresses} new addresses`, floodSettings, async () => {
      const store = await makeStore();
      const windows = quotaWindows(T0, free);
      const [minute] = windows;
      await store.ban('key:banned', T0 + 900_000, T0);
      await store.ban('address:192.0.2.66', T0 + 900_000, T0);
      for (let i = 0; i < 5; i++) await store.take('key:counted', windows, T0);
      await store.reject('key:counted', minute!, T0);

      // In batches, so a networked store sees many calls in flight without one huge burst.
      for (let first = 0; first < floodAddresses; first += 500) {
        const batch = Array.from({ length: Math.min(500, floodAddresses - first) }, (_, i) => floodSubject(first + i));
        const floodOne = async (subject: Subject) => {
          await store.take(subject, windows, T0);
          await store.reject(subject, minute!, T0);
        };
        await Promise.all(batch.map(floodOne));
      }

      expect(await store.take('key:banned', windows, T0)).toMatchObject({ admitted: false, bannedUntil: T0 + 900_000 });
      expect(await store.take('address:192.0.2.66', windows, T0)).toMatchObject({ admitted: false, bannedUntil: T0 + 900_000 });
      expect(await store.take('key:counted', windows, T0)).toEqual({ admitted: true, used: [6, 6] });
      expect(await store.reject('key:counted', minute!, T0)).toBe(2);
    });

    it('names the database it can be down with: a store with a ping names it, for people and by OpenTelemetry system, and its ping answers while it is up', async () => {
      const store = await makeStore();
      // /readyz names what does not answer: a store that can be down says what it is.
      if (!store.database) return expect(store.ping).toBeUndefined();
      expect(store.database).toEqual({ system: expect.stringMatching(/^[a-z][a-z0-9_.]*$/), name: expect.stringMatching(/\S/) });
      if (store.ping) await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}

/** The `index`th address of the flood, all distinct: IPv4 addresses in 10.0.0.0/8 and IPv6 /56 networks in turn. */
function floodSubject(index: number): Subject {
  return index % 2 === 0
    ? `address:10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`
    : `address:2001:db8:${(index >> 8).toString(16)}:${((index & 255) << 8).toString(16)}::/56`;
}
