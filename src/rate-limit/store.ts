/** The contract of a rate-limit store: where counters and bans live, shared by every instance using it. */

/** One fixed window a request is counted in. */
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

/** What {@link RateLimitStore.take} decided. */
export interface TakeResult {
  /** True when the request was counted in every window. */
  readonly admitted: boolean;
  /** Requests counted in each window (same order as given), this one included when admitted. */
  readonly used: readonly number[];
  /** Set when the subject is banned: the ban's end, epoch ms. Nothing was counted. */
  readonly bannedUntil?: number;
}

/**
 * Counters and bans per subject (an API key's id or an anonymous client address).
 * Implementations must make each method atomic: concurrent calls, from one process or many
 * sharing the store, never over-admit. Counters of a window may be dropped once it has ended.
 */
export interface RateLimitStore {
  /**
   * Check and take, as one atomic step: unless `subject` is banned, count one request in every
   * window if each has room (`used < limit`), otherwise count nothing.
   */
  take(subject: string, windows: readonly QuotaWindow[], now: number): Promise<TakeResult>;
  /** Counts one refused request of `subject` within `window`; resolves to the refusals so far in it. */
  reject(subject: string, window: QuotaWindow, now: number): Promise<number>;
  /** Bans `subject` until `until` (epoch ms): `take` answers with `bannedUntil` till then. */
  ban(subject: string, until: number, now: number): Promise<void>;
}
