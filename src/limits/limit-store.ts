/** The contract of a limit store: where counters and bans live, shared by every instance using it. */
import type { StoreDatabase } from '../storage/database.ts';

/**
 * One fixed window a request is counted in.
 *
 * @example
 * const minute: QuotaWindow = { name: 'minute', limit: 60, start: Date.parse('2026-11-22T10:00:00Z'), end: Date.parse('2026-11-22T10:01:00Z') };
 */
export interface QuotaWindow {
  /** Policy name, as sent in `RateLimit` and `RateLimit-Policy` (`minute`, `day`). */
  readonly name: string;
  /** Requests admitted per window. */
  readonly limit: number;
  /** Start of the current window, epoch ms (inclusive). */
  readonly start: number;
  /** End of the current window, epoch ms (exclusive): when it resets. */
  readonly end: number;
}

/**
 * What {@link LimitStore.take} decided.
 *
 * @example
 * const refused: TakeResult = { admitted: false, used: [60, 412] }; // the minute window is full
 */
export interface TakeResult {
  /** True when the request was counted in every window. */
  readonly admitted: boolean;
  /** Requests counted in each window (same order as given), this one included when admitted. */
  readonly used: readonly number[];
  /** Set when the subject is banned: the ban's end, epoch ms. Nothing was counted. */
  readonly bannedUntil?: number;
}

/**
 * Who a counter or ban belongs to: `key:<first 128 bits of the key's SHA-256, hex>` for a caller
 * with a valid key, `address:<IPv4 address, or IPv6 network/prefix>` for one without
 * (see `anonymousSubject`). Keys themselves never reach a store.
 *
 * @example
 * const subjects: Subject[] = ['key:9f86d081884c7d659a2feaa0c55ad015', 'address:192.0.2.7', 'address:2001:db8:1:ff00::/56'];
 */
export type Subject = `key:${string}` | `address:${string}`;

/**
 * Counters and bans per {@link Subject}.
 *
 * Implementations must make each method atomic: concurrent calls, from one process or many
 * sharing the store, never over-admit.
 *
 * What a store may forget, and what it may not:
 * - State that has expired (a counter whose window has ended, a ban whose end has passed) may be
 *   dropped at any time.
 * - Counters of `address:` subjects may also be forgotten early, under memory pressure: anyone
 *   can make new addresses, so their number has no bound, and forgetting one only gives that
 *   address a fresh budget.
 * - Counters of `key:` subjects must never be forgotten before their window ends, and no live
 *   ban, of either kind, before its end: otherwise a flood of anonymous callers would restore
 *   a banned caller's access and a key's quota. (A Redis behind them must not evict keys.)
 *
 * @example
 * const limitStore: LimitStore = redisLimitStore(client); // or your own implementation
 * const petstore = createPetStore({ limitStore });
 */
export interface LimitStore {
  /**
   * Check and take, as one atomic step: unless `subject` is banned, count one request in every
   * window if each has room (`used < limit`), otherwise count nothing.
   */
  take(subject: Subject, windows: readonly QuotaWindow[], now: number): Promise<TakeResult>;
  /** Counts one refused request of `subject` within `window`; resolves to the refusals so far in it. */
  reject(subject: Subject, window: QuotaWindow, now: number): Promise<number>;
  /**
   * Bans `subject` until `until` (epoch ms): `take` answers with `bannedUntil` till then. A ban
   * already lasting longer is kept as it is: a ban is never cut short.
   */
  ban(subject: Subject, until: number, now: number): Promise<void>;
  /** The database server the limits are kept in; none for a store in the process. */
  readonly database?: StoreDatabase;
  /** Resolves when the database answers, rejects when it does not: `GET /readyz` asks. Omit it where nothing can be down. */
  ping?(): Promise<void>;
}
