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

/** Everything known about one subject; counts are only valid for the window that starts at `starts[i]`. */
interface Entry {
  starts: number[];
  counts: number[];
  refusedIn: number;
  refused: number;
  bannedUntil: number;
  /** When every window and ban of the entry has ended: its expiry. */
  until: number;
}

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

  const entryOf = (subject: string, now: number): Entry => {
    clock = now;
    return cache.get(subject) ?? { starts: [], counts: [], refusedIn: 0, refused: 0, bannedUntil: 0, until: 0 };
  };
  // The entry is useless once its last window and any ban have ended, so it expires then.
  const save = (subject: string, entry: Entry, until: number, now: number) => {
    entry.until = Math.max(entry.until, until);
    cache.set(subject, entry, { ttl: Math.max(1, entry.until - now) });
  };

  return {
    get size() {
      return cache.size;
    },
    async take(subject: string, windows: readonly QuotaWindow[], now: number): Promise<TakeResult> {
      const entry = entryOf(subject, now);
      const current = windows.map((w, i) => (entry.starts[i] === w.start ? entry.counts[i]! : 0));
      if (entry.bannedUntil > now) return { admitted: false, used: current, bannedUntil: entry.bannedUntil };
      if (current.some((used, i) => used >= windows[i]!.limit)) return { admitted: false, used: current };
      entry.starts = windows.map((w) => w.start);
      entry.counts = current.map((used) => used + 1);
      save(subject, entry, Math.max(...windows.map((w) => w.end)), now);
      return { admitted: true, used: entry.counts };
    },
    async reject(subject: string, window: QuotaWindow, now: number): Promise<number> {
      const entry = entryOf(subject, now);
      entry.refused = entry.refusedIn === window.start ? entry.refused + 1 : 1;
      entry.refusedIn = window.start;
      save(subject, entry, window.end, now);
      return entry.refused;
    },
    async ban(subject: string, until: number, now: number): Promise<void> {
      const entry = entryOf(subject, now);
      entry.bannedUntil = until;
      save(subject, entry, until, now);
    },
  };
}
