/** memoryLimitStore: atomic check-and-take, fresh windows, bans, and which state a flood of addresses may push out. */
import { describe, expect, it } from 'vitest';
import type { Subject } from './limit-store.ts';
import { quotaWindows } from './limiter.ts';
import { memoryLimitStore } from './memory-limit-store.ts';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const free = { perMinute: 60, perDay: 1000 };

describe('memoryLimitStore', () => {
  it('admits exactly the limit of 500 concurrent takes and counts nothing for refusals', async () => {
    const store = memoryLimitStore();
    const windows = quotaWindows(T0, free);
    const results = await Promise.all(Array.from({ length: 500 }, () => store.take('key:k', windows, T0)));
    expect(results.filter((r) => r.admitted)).toHaveLength(60);
    const next = quotaWindows(T0 + 60_000, free);
    expect(await store.take('key:k', next, T0 + 60_000)).toEqual({ admitted: true, used: [1, 61] });
  });

  it('starts a fresh count when a window has ended', async () => {
    const store = memoryLimitStore();
    await store.take('key:k', quotaWindows(T0, free), T0);
    const tomorrow = T0 + 86_400_000;
    expect(await store.take('key:k', quotaWindows(tomorrow, free), tomorrow)).toEqual({ admitted: true, used: [1, 1] });
  });

  it('counts refusals per window and bans until the given time', async () => {
    const store = memoryLimitStore();
    const [minute] = quotaWindows(T0, free);
    expect(await store.reject('key:k', minute!, T0)).toBe(1);
    expect(await store.reject('key:k', minute!, T0 + 1)).toBe(2);
    const [nextMinute] = quotaWindows(T0 + 60_000, free);
    expect(await store.reject('key:k', nextMinute!, T0 + 60_000)).toBe(1);
    await store.ban('key:k', T0 + 120_000, T0 + 60_000);
    expect(await store.take('key:k', quotaWindows(T0 + 119_999, free), T0 + 119_999)).toMatchObject({ admitted: false, bannedUntil: T0 + 120_000 });
    expect((await store.take('key:k', quotaWindows(T0 + 120_000, free), T0 + 120_000)).admitted).toBe(true);
  });

  it('reports no ban once it has ended, even one that no sweep has reached yet', async () => {
    const store = memoryLimitStore();
    // Each call sweeps the next two bans, going round: after these four calls the next sweep looks at a and b, not k.
    await store.ban('key:a', T0 + 900_000, T0);
    await store.ban('key:b', T0 + 900_000, T0);
    await store.ban('key:k', T0 + 60_000, T0);
    await store.take('key:other', quotaWindows(T0, free), T0);
    const end = T0 + 60_000;
    expect(await store.take('key:k', quotaWindows(end, free), end)).toEqual({ admitted: true, used: [1, 1] });
  });

  it('forgets a ban at the moment it ends', async () => {
    const store = memoryLimitStore();
    await store.ban('key:k', T0 + 60_000, T0);
    await store.take('key:other', quotaWindows(T0 + 60_000, free), T0 + 60_000);
    expect(store.banCount).toBe(0);
  });

  it('keeps every key’s counts however many keys there are: maxAddresses bounds only addresses', async () => {
    const store = memoryLimitStore({ maxAddresses: 100 });
    const windows = quotaWindows(T0, free);
    for (let i = 0; i < 20_000; i++) await store.take(`key:${i}`, windows, T0);
    expect(store.keyCount).toBe(20_000);
    expect(await store.take('key:0', windows, T0)).toEqual({ admitted: true, used: [2, 2] });
  });

  it('holds at most maxAddresses anonymous callers after 200,000 distinct addresses', async () => {
    const store = memoryLimitStore({ maxAddresses: 5_000 });
    const windows = quotaWindows(T0, free);
    for (let i = 0; i < 200_000; i++) await store.take(`address:subject-${i}`, windows, T0);
    expect(store.addressCount).toBe(5_000);
  });

  it('forgets the least recently seen address when a new one comes past maxAddresses', async () => {
    const store = memoryLimitStore({ maxAddresses: 2 });
    const windows = quotaWindows(T0, free);
    await store.take('address:a', windows, T0);
    await store.take('address:b', windows, T0);
    await store.take('address:a', windows, T0); // a is now the more recent
    await store.take('address:c', windows, T0); // pushes out b
    expect(store.addressCount).toBe(2);
    expect(await store.take('address:a', windows, T0)).toEqual({ admitted: true, used: [3, 3] });
    expect(await store.take('address:b', windows, T0)).toEqual({ admitted: true, used: [1, 1] });
  });

  it('forgets the least recently seen address when the one seen again was between two others', async () => {
    const store = memoryLimitStore({ maxAddresses: 3 });
    const windows = quotaWindows(T0, free);
    for (const address of ['a', 'b', 'c', 'b']) await store.take(`address:${address}`, windows, T0); // a, c, b from least recent
    await store.take('address:d', windows, T0); // pushes out a
    expect(store.addressCount).toBe(3);
    expect(await store.take('address:c', windows, T0)).toEqual({ admitted: true, used: [2, 2] });
    expect(await store.take('address:b', windows, T0)).toEqual({ admitted: true, used: [3, 3] });
    expect(await store.take('address:a', windows, T0)).toEqual({ admitted: true, used: [1, 1] });
  });

  it('counts a refusal as seeing the address: the one refused last is kept, an older one forgotten', async () => {
    const store = memoryLimitStore({ maxAddresses: 2 });
    const windows = quotaWindows(T0, free);
    await store.take('address:a', windows, T0);
    await store.take('address:b', windows, T0);
    expect(await store.reject('address:a', windows[0]!, T0)).toBe(1); // a is now the more recent
    await store.take('address:c', windows, T0); // pushes out b
    expect(await store.reject('address:a', windows[0]!, T0)).toBe(2);
    expect(await store.take('address:b', windows, T0)).toEqual({ admitted: true, used: [1, 1] });
  });

  it('keeps an address’s counts while its windows last, and counts it afresh once they have ended', async () => {
    const store = memoryLimitStore();
    await store.take('address:a', quotaWindows(T0, free), T0);
    const late = T0 + 59_999;
    expect(await store.take('address:a', quotaWindows(late, free), late)).toEqual({ admitted: true, used: [2, 2] });
    expect(await store.reject('address:a', quotaWindows(late, free)[0]!, late)).toBe(1);
    const tomorrow = T0 + 86_400_000;
    expect(await store.take('address:a', quotaWindows(tomorrow, free), tomorrow)).toEqual({ admitted: true, used: [1, 1] });
    expect(await store.reject('address:a', quotaWindows(tomorrow, free)[0]!, tomorrow)).toBe(1);
  });

  it('sets aside nothing per address up front: a bound of Number.MAX_SAFE_INTEGER is a valid store', async () => {
    const store = memoryLimitStore({ maxAddresses: Number.MAX_SAFE_INTEGER });
    expect(await store.take('address:a', quotaWindows(T0, free), T0)).toEqual({ admitted: true, used: [1, 1] });
    expect(store.addressCount).toBe(1);
  });

  it('forgets ended bans and ended key counters as later calls come, without timers', async () => {
    const store = memoryLimitStore();
    const windows = quotaWindows(T0, free);
    for (let i = 0; i < 1_000; i++) {
      await store.take(`key:${i}`, windows, T0);
      await store.ban(`address:192.0.2.${i}`, T0 + 60_000, T0);
    }
    expect([store.keyCount, store.banCount]).toEqual([1_000, 1_000]);
    const tomorrow = T0 + 86_400_000;
    for (let i = 0; i < 1_000; i++) await store.take('key:late', quotaWindows(tomorrow, free), tomorrow);
    expect([store.keyCount, store.banCount]).toEqual([1, 0]);
  });

  it('keeps the later end when a subject is banned twice', async () => {
    const store = memoryLimitStore();
    await store.ban('key:k', T0 + 900_000, T0);
    await store.ban('key:k', T0 + 60_000, T0);
    expect(await store.take('key:k', quotaWindows(T0 + 60_000, free), T0 + 60_000)).toMatchObject({ bannedUntil: T0 + 900_000 });
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects maxAddresses %s with a TypeError saying what it must be', (maxAddresses) => {
    expect(() => memoryLimitStore({ maxAddresses })).toThrow(new TypeError('maxAddresses must be a positive integer'));
  });

  it('holds one address when maxAddresses is 1', async () => {
    const store = memoryLimitStore({ maxAddresses: 1 });
    const windows = quotaWindows(T0, free);
    await store.take('address:a', windows, T0);
    await store.take('address:b', windows, T0);
    expect(store.addressCount).toBe(1);
  });

  it.each<Subject>(['address:192.0.2.7', 'key:k'])(
    'counts %s from one when a refusal came first, in the first minute of a clock that starts at 0 too',
    async (subject) => {
      // A wrong admin token is refused before the caller's first request is counted (strikes.ts shares the store):
      // the entry the refusal made holds zeros for both windows, which a window starting at 0 reads.
      const store = memoryLimitStore();
      const windows = quotaWindows(0, free);
      expect(await store.reject(subject, windows[0]!, 0)).toBe(1);
      expect(await store.take(subject, windows, 1)).toEqual({ admitted: true, used: [1, 1] });
    },
  );
});
