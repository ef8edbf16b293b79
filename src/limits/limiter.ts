/** The rate-limit step: fixed UTC windows per subject, quota headers, 429s and temporary bans. */
import { ApiError } from '../response/api-error.ts';
import { fixedError } from '../response/reply.ts';
import type { LimitStore, QuotaWindow, Subject } from './limit-store.ts';
import type { Quota } from './plans.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Settings of {@link createRateLimiter}. */
interface RateLimiterSettings {
  readonly limitStore: LimitStore;
  readonly now: () => number;
  /** A subject is banned when its refusals within one minute window exceed this. */
  readonly banThreshold: number;
  readonly banDurationMs: number;
}

/**
 * How the rate limits ruled on one request: counted, refused because its minute or its day is
 * used up, or refused because its caller is banned.
 *
 * @example
 * const ruling: LimitRuling = 'minute'; // a 429 rate_limited until the minute ends
 */
export type LimitRuling = 'admitted' | 'minute' | 'day' | 'ban';

/** The headers for this request's response, and the 429 to answer with when it was refused. */
interface RateLimitOutcome {
  readonly headers: Record<string, string>;
  readonly refusal?: ApiError;
  /** Why it was refused (for telemetry); none when it was admitted. */
  readonly ruling?: Exclude<LimitRuling, 'admitted'>;
  /** Set when this request started the ban: how long it lasts, in ms. */
  readonly banMs?: number;
}

/** The minute and day windows containing `now`, aligned to UTC so every instance agrees on them. */
export function quotaWindows(now: number, quota: Quota): QuotaWindow[] {
  const minute = Math.floor(now / MINUTE) * MINUTE;
  const day = Math.floor(now / DAY) * DAY;
  return [
    { name: 'minute', limit: quota.perMinute, start: minute, end: minute + MINUTE },
    { name: 'day', limit: quota.perDay, start: day, end: day + DAY },
  ];
}

/**
 * Builds the rate-limit step. Each call counts one request of `subject` against `quota`
 * (atomically, in the store) and says which headers to send and whether to refuse.
 */
export function createRateLimiter({ limitStore, now: clock, banThreshold, banDurationMs }: RateLimiterSettings) {
  // A plan's policy never changes and its windows once a minute: both are made then, not per
  // request (BENCHMARKS.md, HTTP: the GET row). Frozen, since every request and store shares them.
  const policies = new WeakMap<Quota, string>();
  const policyOf = (quota: Quota, windows: readonly QuotaWindow[]) => {
    let policy = policies.get(quota);
    if (policy === undefined) {
      policy = policyText(windows);
      policies.set(quota, policy);
    }
    return policy;
  };
  const currentWindows = new WeakMap<Quota, readonly QuotaWindow[]>();
  const windowsAt = (now: number, quota: Quota) => {
    let windows = currentWindows.get(quota);
    // The minute window lies within the day's: inside it, both still hold.
    if (windows === undefined || now < windows[0]!.start || now >= windows[0]!.end) {
      windows = Object.freeze(quotaWindows(now, quota).map((window) => Object.freeze(window)));
      currentWindows.set(quota, windows);
    }
    return windows;
  };

  // The last ban's answer, while nothing it says has changed: a banned caller that keeps sending
  // (the flood that earned the ban) is answered without building its headers and error again,
  // and its body is serialized once a second, not once a request (BENCHMARKS.md, HTTP: the 429 row).
  let lastBan: BanAnswer | undefined;

  /** A ban is reported on the minute window, where it was earned: nothing remains until it ends. */
  function banned(quota: Quota, windows: readonly QuotaWindow[], used: readonly number[], until: number, now: number): RateLimitOutcome {
    // What the answer is made of: the day's use, and the three times it counts down (each whole seconds from now).
    const dayUsed = used[1];
    // Stryker disable all: the cache's key. Any key that still changes whenever the seconds an answer shows do gives the same answers (MUTANTS.md).
    const minuteLeft = Math.ceil((Math.max(windows[0]!.end, until) - now) / 1000);
    const dayLeft = Math.ceil(((windows[1]?.end ?? 0) - now) / 1000);
    const banLeft = Math.ceil((until - now) / 1000);
    // Stryker restore all
    const last = lastBan;
    if (
      last !== undefined &&
      last.windows === windows &&
      last.until === until &&
      last.dayUsed === dayUsed &&
      last.minuteLeft === minuteLeft &&
      last.dayLeft === dayLeft &&
      last.banLeft === banLeft
    ) {
      return last.outcome;
    }
    const outcome = banAnswer(quota, windows, used, until, now);
    lastBan = { windows, until, dayUsed, minuteLeft, dayLeft, banLeft, outcome };
    return outcome;
  }

  function banAnswer(quota: Quota, windows: readonly QuotaWindow[], used: readonly number[], until: number, now: number): RateLimitOutcome {
    const states = windowStates(windows, used);
    const minute = states[0]!;
    states[0] = { name: minute.name, limit: minute.limit, remaining: 0, reset: Math.max(minute.reset, until) };
    const retryAfter = secondsUntil(until, now);
    const message = `Too many requests after being limited; banned for ${retryAfter} more seconds.`;
    return Object.freeze({
      headers: Object.freeze(Object.assign(quotaHeaders(states, now, policyOf(quota, windows)), { 'Retry-After': retryAfter })),
      refusal: fixedError(new ApiError({ status: 429, code: 'key_banned', message })),
      ruling: 'ban',
    });
  }

  return async function limit(subject: Subject, quota: Quota): Promise<RateLimitOutcome> {
    const now = clock();
    const windows = windowsAt(now, quota);
    const { admitted, used, bannedUntil } = await limitStore.take(subject, windows, now);
    if (bannedUntil !== undefined && bannedUntil > now) return banned(quota, windows, used, bannedUntil, now);
    const headers = quotaHeaders(windowStates(windows, used), now, policyOf(quota, windows));
    if (admitted) return { headers };

    const refusals = await limitStore.reject(subject, windows[0]!, now);
    if (refusals > banThreshold) {
      const until = now + banDurationMs;
      await limitStore.ban(subject, until, now);
      return { ...banned(quota, windows, used, until, now), banMs: banDurationMs };
    }
    // Wait for every full window: retrying earlier would be refused again.
    const resetsAt = Math.max(...windows.filter((w, i) => used[i]! >= w.limit).map((w) => w.end));
    const retryAfter = secondsUntil(resetsAt, now);
    return {
      headers: Object.assign({}, headers, { 'Retry-After': retryAfter }),
      refusal: new ApiError({ status: 429, code: 'rate_limited', message: `Rate limit exceeded; retry in ${retryAfter} seconds.` }),
      // The day is named when it is used up: its wait is the one that counts.
      ruling: windows.length > 1 && used[1]! >= windows[1]!.limit ? 'day' : 'minute',
    };
  };
}

/** A ban's answer, and what it was made of: the same again gives the same answer. */
interface BanAnswer {
  readonly windows: readonly QuotaWindow[];
  readonly until: number;
  readonly dayUsed: number | undefined;
  readonly minuteLeft: number;
  readonly dayLeft: number;
  readonly banLeft: number;
  readonly outcome: RateLimitOutcome;
}

/** The `RateLimit-Policy` value of a plan's windows. */
function policyText(windows: readonly QuotaWindow[]): string {
  return windows.map((w) => `"${w.name}";q=${w.limit};w=${(w.end - w.start) / 1000}`).join(', ');
}

/**
 * Whole seconds from `now` until `time`, at least 1, as a header value: every `Retry-After` of a limit or a ban.
 *
 * @example
 * secondsUntil(now + 1_500, now); // '2'
 */
export function secondsUntil(time: number, now: number): string {
  return String(Math.max(1, Math.ceil((time - now) / 1000)));
}

/** A window as the headers describe it: how much is left and when it resets. */
interface WindowState {
  readonly name: string;
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
}

function windowStates(windows: readonly QuotaWindow[], used: readonly number[]): WindowState[] {
  return windows.map((w, i) => ({
    name: w.name,
    limit: w.limit,
    remaining: Math.max(0, w.limit - used[i]!),
    reset: w.end,
  }));
}

/**
 * `X-RateLimit-*` for the window that binds first (fewest remaining; on a tie, the later reset),
 * and the draft-ietf-httpapi-ratelimit-headers-11 fields listing every window, binding first.
 */
export function quotaHeaders(states: readonly WindowState[], now: number, policy: string): Record<string, string> {
  const ordered = inBindingOrder(states);
  const binding = ordered[0]!;
  // Built in one loop, not map and join: this runs on every request (BENCHMARKS.md, HTTP: the GET row).
  let rateLimit = '';
  for (const s of ordered) {
    rateLimit += `${rateLimit === '' ? '' : ', '}"${s.name}";r=${s.remaining};t=${Math.max(0, Math.ceil((s.reset - now) / 1000))}`;
  }
  return {
    'X-RateLimit-Limit': String(binding.limit),
    'X-RateLimit-Remaining': String(binding.remaining),
    'X-RateLimit-Reset': String(Math.ceil(binding.reset / 1000)),
    'RateLimit-Policy': policy,
    RateLimit: rateLimit,
  };
}

/** `states` binding first, as a stable sort orders them; for the usual two windows, one comparison instead of a sort (BENCHMARKS.md, HTTP: the GET row). */
function inBindingOrder(states: readonly WindowState[]): readonly WindowState[] {
  if (states.length !== 2) return [...states].sort(bindsFirst);
  const [a, b] = states as readonly [WindowState, WindowState];
  return bindsFirst(a, b) <= 0 ? states : [b, a];
}

/** Fewest remaining first; on a tie, the later reset. */
function bindsFirst(a: WindowState, b: WindowState): number {
  return a.remaining - b.remaining || b.reset - a.reset;
}

/**
 * The quota headers of a refusal that did not come from the store (an injected 429 fault): the
 * minute window of `quota` spent, resetting in `retryAfterSeconds`, with the plan's policy.
 */
export function refusalHeaders(quota: Quota, now: number, retryAfterSeconds: number): Record<string, string> {
  const windows = quotaWindows(now, quota);
  const policy = policyText(windows);
  const states = windowStates(windows, [windows[0]!.limit, 0]);
  const minute = states[0]!;
  states[0] = { name: minute.name, limit: minute.limit, remaining: minute.remaining, reset: now + retryAfterSeconds * 1000 };
  return Object.assign(quotaHeaders(states, now, policy), { 'Retry-After': String(retryAfterSeconds) });
}
