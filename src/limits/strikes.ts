/** Bans earned by wrong guesses (a wrong admin token), counted and kept in a limit store as the rate limiter's refusals and bans are. */
import { ApiError } from '../response/api-error.ts';
import type { LimitStore, QuotaWindow, Subject } from './limit-store.ts';
import { secondsUntil } from './limiter.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Settings of {@link createStrikes}: the options the rate limiter's bans are made of. */
export interface StrikeSettings {
  readonly limitStore: LimitStore;
  readonly now: () => number;
  /** A subject is banned when its wrong guesses within one minute window exceed this. */
  readonly banThreshold: number;
  /** How long a ban lasts; with `firstBanMs`, the longest a ban grows to. */
  readonly banDurationMs: number;
  /**
   * When given, bans start this short and double with each ban of the subject in the same UTC day,
   * up to `banDurationMs`: a guesser is slowed as much as a long ban would, while someone who
   * shares its subject (or whose address it forged) waits seconds rather than the whole duration.
   */
  readonly firstBanMs?: number;
  /** What was guessed wrong, for the 429's message: `'wrong admin tokens'`. */
  readonly what: string;
}

/**
 * A subject's wrong guesses and the ban they earn.
 *
 * @example
 * const strikes: Strikes = createStrikes({ limitStore: memoryLimitStore(), now: Date.now, banThreshold: 10, banDurationMs: 900_000, what: 'wrong admin tokens' });
 */
export interface Strikes {
  /** The 429 (`key_banned`, with `Retry-After`) to answer `subject` with while it is banned; `undefined` when it is not. */
  banned(subject: Subject): Promise<ApiError | undefined>;
  /** Counts one wrong guess of `subject`: the 429 of the ban it earns when its guesses in this minute exceed the threshold, else `undefined`. */
  strike(subject: Subject): Promise<ApiError | undefined>;
}

/**
 * Strikes on `limitStore`: wrong guesses counted per UTC minute with the store's `reject`, a ban
 * set with its `ban` and read with its `take`, so they follow the same threshold, duration and
 * clock as the bans of refused API requests (growing from `firstBanMs` when given), and a shared
 * store shares them.
 *
 * @example
 * const strikes = createStrikes({ limitStore, now, banThreshold: 10, banDurationMs: 900_000, firstBanMs: 1_000, what: 'wrong admin tokens' });
 * const refusal = (await strikes.banned('address:192.0.2.7')) ?? (await strikes.strike('address:192.0.2.7'));
 */
export function createStrikes({ limitStore, now: clock, banThreshold, banDurationMs, firstBanMs, what }: StrikeSettings): Strikes {
  // The window take() counts every guess in (right or wrong) never fills: it is read only for a ban.
  const minuteOf = (now: number): QuotaWindow => {
    const start = Math.floor(now / MINUTE) * MINUTE;
    return { name: 'minute', limit: Number.MAX_SAFE_INTEGER, start, end: start + MINUTE };
  };
  // The bans of a subject so far today, counted under a subject of their own in the same store.
  const dayOf = (now: number): QuotaWindow => {
    const start = Math.floor(now / DAY) * DAY;
    return { name: 'day', limit: Number.MAX_SAFE_INTEGER, start, end: start + DAY };
  };
  const durationOf = async (subject: Subject, now: number) => {
    if (firstBanMs === undefined) return banDurationMs;
    const bans = await limitStore.reject(`${subject}#bans`, dayOf(now), now);
    return Math.min(banDurationMs, firstBanMs * 2 ** Math.min(bans - 1, 52));
  };
  const refusal = (until: number, now: number) => {
    const seconds = secondsUntil(until, now);
    return new ApiError({
      status: 429,
      code: 'key_banned',
      message: `Too many ${what} from this address; banned for ${seconds} more second${seconds === '1' ? '' : 's'}.`,
      headers: { 'Retry-After': seconds },
    });
  };
  return {
    async banned(subject) {
      const now = clock();
      const { bannedUntil } = await limitStore.take(subject, [minuteOf(now)], now);
      return bannedUntil !== undefined && bannedUntil > now ? refusal(bannedUntil, now) : undefined;
    },
    async strike(subject) {
      const now = clock();
      const strikes = await limitStore.reject(subject, minuteOf(now), now);
      if (strikes <= banThreshold) return undefined;
      const until = now + (await durationOf(subject, now));
      await limitStore.ban(subject, until, now);
      return refusal(until, now);
    },
  };
}
