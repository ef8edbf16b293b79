/** The default rate-limit store: counters in a bounded lru-cache, each entry expiring with its windows. */
import { LRUCache } from 'lru-cache';
import type { QuotaWindow, RateLimitStore, TakeResult } from './store.ts';

/** Options of {@link memoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /**
   * Most subjects (keys and client addresses) tracked at once. Past it, the least recently
   * seen subject is forgotten, which resets its counters. Default 100,000.
   */
  readonly maxKeys?: number;
}

/** A {@link RateLimitStore} in process memory, with its current number of entries. */
export interface MemoryRateLimitStore extends RateLimitStore {
  /** Subjects currently tracked; never more than `maxKeys`. */
  readonly size: number;
}

/**
 * Everything known about one subject, as one flat array of numbers (V8 keeps it as a single
 * unboxed double array: about 110 bytes, against 300 for an object holding two arrays):
 * [until, bannedUntil, refusedIn, refused, start0, count0, start1, count1, ...].
 * A window's count is valid only while its stored start is the current window's start.
 */
type Entry = number[];
const UNTIL = 0;
const BANNED_UNTIL = 1;
const REFUSED_IN = 2;
const REFUSED = 3;
const WINDOWS = 4;
/** Slots made for an entry first created by a refusal or a ban: the limiter's minute and day. */
const USUAL_WINDOW_COUNT = 2;

/**
 * A {@link RateLimitStore} in memory, on lru-cache. Each method runs without awaiting, so it is
 * atomic within the process; use a shared store when several instances serve one API.
 *
 * @example
 * const petstore = createPetStore({ rateLimitStore: memoryRateLimitStore({ maxKeys: 10_000 }) });
 */
export function memoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): MemoryRateLimitStore {
  const { maxKeys = 100_000 } = options;
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new TypeError('maxKeys must be a positive integer');
  // Entries age by the API's clock (the `now` each call brings), so a test clock expires them too;
  // ttlResolution 0 reads that clock directly instead of caching it behind a timer per call.
  let clock = 0;
  const cache = new LRUCache<string, Entry>({ max: maxKeys, ttlResolution: 0, perf: { now: () => clock } });

  // Sized once: growing an array later would over-allocate its backing store by half.
  const entryOf = (subject: string, now: number, windowCount: number): Entry => {
    clock = now;
    return cache.get(subject) ?? new Array<number>(WINDOWS + 2 * windowCount).fill(0);
  };
  // The entry is useless once its last window and any ban have ended, so it expires then.
  const save = (subject: string, entry: Entry, until: number, now: number) => {
    entry[UNTIL] = Math.max(entry[UNTIL]!, until);
    cache.set(subject, entry, { ttl: Math.max(1, entry[UNTIL]! - now) });
  };
  const usedIn = (entry: Entry, windows: readonly QuotaWindow[]) =>
    windows.map((w, i) => (entry[WINDOWS + 2 * i] === w.start ? entry[WINDOWS + 2 * i + 1]! : 0));

  return {
    get size() {
      return cache.size;
    },
    async take(subject: string, windows: readonly QuotaWindow[], now: number): Promise<TakeResult> {
      const entry = entryOf(subject, now, windows.length);
      const current = usedIn(entry, windows);
      if (entry[BANNED_UNTIL]! > now) return { admitted: false, used: current, bannedUntil: entry[BANNED_UNTIL] };
      if (current.some((used, i) => used >= windows[i]!.limit)) return { admitted: false, used: current };
      const used = current.map((count) => count + 1);
      windows.forEach((w, i) => {
        entry[WINDOWS + 2 * i] = w.start;
        entry[WINDOWS + 2 * i + 1] = used[i]!;
      });
      save(subject, entry, Math.max(...windows.map((w) => w.end)), now);
      return { admitted: true, used };
    },
    async reject(subject: string, window: QuotaWindow, now: number): Promise<number> {
      const entry = entryOf(subject, now, USUAL_WINDOW_COUNT);
      entry[REFUSED] = entry[REFUSED_IN] === window.start ? entry[REFUSED]! + 1 : 1;
      entry[REFUSED_IN] = window.start;
      save(subject, entry, window.end, now);
      return entry[REFUSED];
    },
    async ban(subject: string, until: number, now: number): Promise<void> {
      const entry = entryOf(subject, now, USUAL_WINDOW_COUNT);
      entry[BANNED_UNTIL] = until;
      save(subject, entry, until, now);
    },
  };
}
