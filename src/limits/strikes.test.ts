/** createStrikes on its own: wrong guesses counted per UTC minute, the ban they earn, its message, and bans that double through a UTC day. */
import { describe, expect, it } from 'vitest';
import type { LimitStore, Subject } from './limit-store.ts';
import { memoryLimitStore } from './memory-limit-store.ts';
import { createStrikes, type StrikeSettings } from './strikes.ts';

const NOW = Date.parse('2026-11-22T10:00:15Z');
const GUESSER: Subject = 'address:203.0.113.9';
const NEIGHBOUR: Subject = 'address:198.51.100.4';

/** Strikes on a memory store and a clock moved by hand: banned after more than two wrong guesses a minute. */
function strikesAt(time: number, settings: Partial<StrikeSettings> = {}) {
  const clock = { now: time };
  const strikes = createStrikes({
    limitStore: memoryLimitStore(),
    now: () => clock.now,
    banThreshold: 2,
    banDurationMs: 600_000,
    what: 'wrong admin tokens',
    ...settings,
  });
  /** What `strike(subject)` answers at `at`, as the 429's status, Retry-After and message, or undefined. */
  const strike = async (subject: Subject, at: number) => {
    clock.now = at;
    return told(await strikes.strike(subject));
  };
  /** What `banned(subject)` answers at `at`, the same way. */
  const banned = async (subject: Subject, at: number) => {
    clock.now = at;
    return told(await strikes.banned(subject));
  };
  return { strike, banned };
}

const told = (error: { status: number; code: string; message: string; headers?: Record<string, string> } | undefined) =>
  error && [error.status, error.code, error.headers?.['Retry-After'], error.message];

const ban = (seconds: number) => [
  429,
  'key_banned',
  String(seconds),
  `Too many wrong admin tokens from this address; banned for ${seconds} more second${seconds === 1 ? '' : 's'}.`,
];

describe('createStrikes', () => {
  it('bans at the first guess past the threshold, for banDurationMs, and says so in the 429 until the ban ends', async () => {
    const { strike, banned } = strikesAt(NOW);
    expect(await banned(GUESSER, NOW)).toBeUndefined();
    expect(await strike(GUESSER, NOW)).toBeUndefined();
    expect(await strike(GUESSER, NOW + 1)).toBeUndefined();
    expect(await banned(GUESSER, NOW + 2)).toBeUndefined();
    expect(await strike(GUESSER, NOW + 2)).toEqual(ban(600));
    expect(await banned(GUESSER, NOW + 2)).toEqual(ban(600));
    expect(await banned(GUESSER, NOW + 1_002)).toEqual(ban(599));
    // One millisecond left is still a second to wait, said in the singular.
    expect(await banned(GUESSER, NOW + 600_001)).toEqual(ban(1));
    expect(await banned(GUESSER, NOW + 600_002)).toBeUndefined();
    // Another address was never banned.
    expect(await banned(NEIGHBOUR, NOW + 2)).toBeUndefined();
  });

  it('counts guesses in UTC minutes: the threshold within one minute bans, the same spread over two does not', async () => {
    const minuteStart = Date.parse('2026-11-22T10:00:00Z');
    const spread = strikesAt(minuteStart);
    await spread.strike(GUESSER, minuteStart + 58_000);
    await spread.strike(GUESSER, minuteStart + 59_999);
    expect(await spread.strike(GUESSER, minuteStart + 60_000)).toBeUndefined();
    expect(await spread.banned(GUESSER, minuteStart + 60_000)).toBeUndefined();

    const within = strikesAt(minuteStart);
    await within.strike(GUESSER, minuteStart);
    await within.strike(GUESSER, minuteStart + 30_000);
    expect(await within.strike(GUESSER, minuteStart + 59_999)).toEqual(ban(600));
  });

  it('starts bans at firstBanMs and doubles them with each ban that UTC day, up to banDurationMs, per subject', async () => {
    const { strike } = strikesAt(NOW, { firstBanMs: 100_000, banDurationMs: 350_000 });
    // The third guess in a minute bans; each guess after it in the same minute bans again, longer.
    await strike(GUESSER, NOW);
    await strike(GUESSER, NOW);
    const bans = [];
    for (let i = 0; i < 4; i++) bans.push(await strike(GUESSER, NOW));
    expect(bans).toEqual([ban(100), ban(200), ban(350), ban(350)]);
    // The neighbour's first ban is its own, not the guesser's fifth.
    await strike(NEIGHBOUR, NOW);
    await strike(NEIGHBOUR, NOW);
    expect(await strike(NEIGHBOUR, NOW)).toEqual(ban(100));
  });

  it('starts the doubling over in a new UTC day, and keeps it through the day', async () => {
    const lastMinute = Date.parse('2026-11-22T23:59:00Z');
    const midnight = Date.parse('2026-11-23T00:00:00Z');
    const { strike } = strikesAt(lastMinute, { firstBanMs: 1_000 });
    for (let i = 0; i < 2; i++) await strike(GUESSER, lastMinute);
    expect(await strike(GUESSER, lastMinute)).toEqual(ban(1));
    expect(await strike(GUESSER, lastMinute + 59_999)).toEqual(ban(2));
    for (let i = 0; i < 2; i++) await strike(GUESSER, midnight);
    expect(await strike(GUESSER, midnight)).toEqual(ban(1));
    // Later that day, in another minute, the count of the day's bans goes on.
    const noon = Date.parse('2026-11-23T12:00:00Z');
    for (let i = 0; i < 2; i++) await strike(GUESSER, noon);
    expect(await strike(GUESSER, noon)).toEqual(ban(2));
  });

  it('answers no ban when the store still reports one that has ended', async () => {
    // A shared store may hand back a ban ending at this very moment: it is over, as the memory store's would be.
    const stale: LimitStore = {
      take: async (_subject, _windows, now) => ({ admitted: false, used: [0], bannedUntil: now }),
      reject: async () => 0,
      ban: async () => {},
    };
    const strikes = createStrikes({ limitStore: stale, now: () => NOW, banThreshold: 2, banDurationMs: 600_000, what: 'wrong admin tokens' });
    expect(await strikes.banned(GUESSER)).toBeUndefined();
    const past: LimitStore = { ...stale, take: async (_subject, _windows, now) => ({ admitted: false, used: [0], bannedUntil: now - 1 }) };
    expect(await createStrikes({ limitStore: past, now: () => NOW, banThreshold: 2, banDurationMs: 600_000, what: 'x' }).banned(GUESSER)).toBeUndefined();
  });
});

describe('createStrikes and its store', () => {
  it('reads a ban in the minute window, counts guesses there, and the day’s bans in a day window of their own subject', async () => {
    const calls: unknown[] = [];
    const store = memoryLimitStore();
    const recording: LimitStore = {
      take: (subject, windows, now) => (calls.push(['take', subject, windows]), store.take(subject, windows, now)),
      reject: (subject, window, now) => (calls.push(['reject', subject, window]), store.reject(subject, window, now)),
      ban: (subject, until, now) => (calls.push(['ban', subject, until]), store.ban(subject, until, now)),
    };
    const strikes = createStrikes({ limitStore: recording, now: () => NOW, banThreshold: 0, banDurationMs: 600_000, firstBanMs: 1_000, what: 'guesses' });
    await strikes.banned(GUESSER);
    await strikes.strike(GUESSER);
    const minute = { name: 'minute', limit: Number.MAX_SAFE_INTEGER, start: Date.parse('2026-11-22T10:00:00Z'), end: Date.parse('2026-11-22T10:01:00Z') };
    const day = { name: 'day', limit: Number.MAX_SAFE_INTEGER, start: Date.parse('2026-11-22T00:00:00Z'), end: Date.parse('2026-11-23T00:00:00Z') };
    expect(calls).toEqual([
      ['take', GUESSER, [minute]],
      ['reject', GUESSER, minute],
      ['reject', `${GUESSER}#bans`, day],
      ['ban', GUESSER, NOW + 1_000],
    ]);
  });
});
