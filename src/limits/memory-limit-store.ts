/** The default limit store: bans and key counters kept until they end, anonymous counters in a bounded map that forgets the least recently seen first. */
import type { LimitStore, QuotaWindow, Subject, TakeResult } from './limit-store.ts';

/** Options of {@link memoryLimitStore}. */
interface MemoryLimitStoreOptions {
  /**
   * Most anonymous callers (`address:` subjects) whose counters are held at once. Past it, the
   * least recently seen address is forgotten, which gives that address a fresh budget. Keys'
   * counters and bans never count against it and are never pushed out. Default 100,000.
   */
  readonly maxAddresses?: number;
}

/**
 * A {@link LimitStore} in process memory, with how much state it holds. Ended key counters
 * and bans count until a later call sweeps them away.
 *
 * @example
 * const store = memoryLimitStore();
 * console.log(store.addressCount, store.keyCount, store.banCount);
 */
interface MemoryLimitStore extends LimitStore {
  /** Anonymous callers whose counters are held: never more than `maxAddresses`. */
  readonly addressCount: number;
  /** Keys whose counters are held. */
  readonly keyCount: number;
  /** Bans held, of keys and addresses alike. */
  readonly banCount: number;
}

/**
 * A subject's counters, as one flat array of numbers (far less memory than an object holding
 * two arrays: BENCHMARKS.md, Findings): [until, refusedIn, refused, start0, count0, start1, count1, ...].
 * A window's count is valid only while its stored start is the current window's start, so an
 * entry whose windows have ended reads as zeros even before it is dropped.
 */
type Entry = number[];
const UNTIL = 0;
const REFUSED_IN = 1;
const REFUSED = 2;
const WINDOWS = 3;
/** Slots made for an entry first created by a refusal: the limiter's minute and day. */
const USUAL_WINDOW_COUNT = 2;
/**
 * Map entries each call looks at for ended state. Every ban or key entry costs at least one call
 * to make, and each call checks this many of each map, so ended state is gone within a few
 * passes, at a constant cost per call and without a timer or a pause.
 */
const SWEEP_STEP = 2;

/** Where the counters of one kind of subject live. */
interface Counters {
  get(subject: Subject, now: number): Entry | undefined;
  set(subject: Subject, entry: Entry): void;
}

/**
 * A {@link LimitStore} in memory. State is split by what it protects: bans live in a Map
 * that drops only ended bans; counters of keys in a Map that drops them only once their
 * windows have ended; counters of anonymous callers in a {@link RecentMap} of at most `maxAddresses`
 * entries. So however many addresses call, no ban is lifted and no key's quota starts over.
 * Each method runs without awaiting, so it is atomic within the process; use a shared store
 * when several instances serve one API.
 *
 * @example
 * const petstore = createPetStore({ limitStore: memoryLimitStore({ maxAddresses: 10_000 }) });
 */
export function memoryLimitStore(options: MemoryLimitStoreOptions = {}): MemoryLimitStore {
  const { maxAddresses = 100_000 } = options;
  if (!Number.isSafeInteger(maxAddresses) || maxAddresses < 1) throw new TypeError('maxAddresses must be a positive integer');
  const cache = new RecentMap<Entry>(maxAddresses);
  const keyEntries = new Map<Subject, Entry>();
  const bans = new Map<Subject, number>();

  const addresses: Counters = {
    // The entry is useless once its last window has ended (by the API's clock, the `now` each
    // call brings, so a test clock expires it too): it is dropped when next read.
    get: (subject, now) => {
      const entry = cache.get(subject);
      if (entry === undefined || entry[UNTIL]! >= now) return entry;
      cache.delete(subject);
      return undefined;
    },
    set: (subject, entry) => void cache.set(subject, entry),
  };
  const keys: Counters = { get: (subject) => keyEntries.get(subject), set: (subject, entry) => void keyEntries.set(subject, entry) };
  // Anything not explicitly anonymous is kept like a key: only `address:` state may be forgotten.
  const countersOf = (subject: Subject) => (subject.startsWith('address:') ? addresses : keys);

  const sweepKeys = sweeper(keyEntries, (entry) => entry[UNTIL]!);
  const sweepBans = sweeper(bans, (until) => until);
  const tick = (now: number) => {
    sweepKeys(now);
    sweepBans(now);
  };
  const banOf = (subject: Subject, now: number) => {
    const until = bans.get(subject);
    if (until === undefined || until > now) return until;
    bans.delete(subject);
    return undefined;
  };
  // Sized once: growing an array later would over-allocate its backing store by half.
  const newEntry = (windowCount: number): Entry => new Array<number>(WINDOWS + 2 * windowCount).fill(0);
  // An entry read from its counters is changed in place, and reading it made it the most recent:
  // only a new one is stored (a set per take cost each anonymous request: BENCHMARKS.md, HTTP: the 401 row).
  const save = (counters: Counters, subject: Subject, entry: Entry, until: number, isNew: boolean) => {
    entry[UNTIL] = Math.max(entry[UNTIL]!, until);
    if (isNew) counters.set(subject, entry);
  };
  const usedIn = (entry: Entry | undefined, windows: readonly QuotaWindow[]) =>
    windows.map((w, i) => (entry?.[WINDOWS + 2 * i] === w.start ? entry[WINDOWS + 2 * i + 1]! : 0));

  return Object.assign(new HeldCounts(cache, keyEntries, bans), {
    async take(subject: Subject, windows: readonly QuotaWindow[], now: number): Promise<TakeResult> {
      tick(now);
      const counters = countersOf(subject);
      const entry = counters.get(subject, now);
      const current = usedIn(entry, windows);
      const bannedUntil = banOf(subject, now);
      if (bannedUntil !== undefined) return { admitted: false, used: current, bannedUntil };
      if (current.some((used, i) => used >= windows[i]!.limit)) return { admitted: false, used: current };
      const used = current.map((count) => count + 1);
      const updated = entry ?? newEntry(windows.length);
      windows.forEach((w, i) => {
        updated[WINDOWS + 2 * i] = w.start;
        updated[WINDOWS + 2 * i + 1] = used[i]!;
      });
      save(counters, subject, updated, Math.max(...windows.map((w) => w.end)), entry === undefined);
      return { admitted: true, used };
    },
    async reject(subject: Subject, window: QuotaWindow, now: number): Promise<number> {
      tick(now);
      const counters = countersOf(subject);
      const found = counters.get(subject, now);
      const entry = found ?? newEntry(USUAL_WINDOW_COUNT);
      entry[REFUSED] = entry[REFUSED_IN] === window.start ? entry[REFUSED]! + 1 : 1;
      entry[REFUSED_IN] = window.start;
      save(counters, subject, entry, window.end, found === undefined);
      return entry[REFUSED];
    },
    async ban(subject: Subject, until: number, now: number): Promise<void> {
      tick(now);
      bans.set(subject, Math.max(banOf(subject, now) ?? 0, until));
    },
  });
}

type Sized = { readonly size: number };

/** An entry of a {@link RecentMap}, between the one used just before it and the one used just after. */
interface Link<V> {
  readonly key: Subject;
  value: V;
  older: Link<V> | undefined;
  newer: Link<V> | undefined;
}

/**
 * A Map of at most `max` entries that forgets the least recently used one first, its entries
 * linked from the oldest to the newest. It grows with what it holds, reserving nothing up front,
 * and does all lru-cache did here in a small part of what lru-cache took of the service
 * worker's bundle (BENCHMARKS.md, Findings). (Not a bare Map re-inserting each key it uses: a
 * fresh iterator over it steps over every hole the forgotten keys left at the front of V8's
 * table, many times a call's cost in a flood, and a kept one holds every table V8 has outgrown
 * until it is next advanced.)
 */
class RecentMap<V> {
  readonly #links = new Map<Subject, Link<V>>();
  readonly #max: number;
  #oldest: Link<V> | undefined;
  #newest: Link<V> | undefined;
  constructor(max: number) {
    this.#max = max;
  }
  get size(): number {
    return this.#links.size;
  }
  /** The value, which becomes the most recently used. */
  get(key: Subject): V | undefined {
    const link = this.#links.get(key);
    if (link === undefined) return undefined;
    this.#use(link);
    return link.value;
  }
  /** Stores `value` as the most recently used; past `max`, the least recently used is forgotten. */
  set(key: Subject, value: V): void {
    const link = this.#links.get(key);
    if (link !== undefined) {
      link.value = value;
      this.#use(link);
      return;
    }
    const added: Link<V> = { key, value, older: this.#newest, newer: undefined };
    if (this.#newest) this.#newest.newer = added;
    else this.#oldest = added;
    this.#newest = added;
    this.#links.set(key, added);
    if (this.#links.size > this.#max) this.delete(this.#oldest!.key);
  }
  delete(key: Subject): void {
    const link = this.#links.get(key);
    if (link === undefined) return;
    this.#unlink(link);
    this.#links.delete(key);
  }
  #unlink(link: Link<V>): void {
    if (link.older) link.older.newer = link.newer;
    else this.#oldest = link.newer;
    if (link.newer) link.newer.older = link.older;
    else this.#newest = link.older;
  }
  /** Moves `link` to the newest end. */
  #use(link: Link<V>): void {
    if (link === this.#newest) return;
    this.#unlink(link);
    link.older = this.#newest;
    link.newer = undefined;
    this.#newest!.newer = link;
    this.#newest = link;
  }
}

/**
 * How much state a store holds, as getters on a class's shared prototype: an object literal
 * with getters of its own gets a hidden class of its own, which slowed each store and made
 * it outlive young-generation collections (BENCHMARKS.md, Findings).
 */
class HeldCounts {
  readonly #addresses: Sized;
  readonly #keys: Sized;
  readonly #bans: Sized;
  constructor(addresses: Sized, keys: Sized, bans: Sized) {
    this.#addresses = addresses;
    this.#keys = keys;
    this.#bans = bans;
  }
  get addressCount(): number {
    return this.#addresses.size;
  }
  get keyCount(): number {
    return this.#keys.size;
  }
  get banCount(): number {
    return this.#bans.size;
  }
}

/**
 * A function that looks at the next {@link SWEEP_STEP} entries of `map`, going round it, and
 * deletes those whose end (by `endOf`) has passed. Deleting while a Map iterator is live is
 * safe in JavaScript, and entries added meanwhile are reached on this pass or the next.
 */
function sweeper<V>(map: Map<Subject, V>, endOf: (value: V) => number): (now: number) => void {
  let cursor = map.entries();
  return (now) => {
    if (map.size === 0) return;
    for (let step = 0; step < SWEEP_STEP; step++) {
      const next = cursor.next();
      if (next.done) {
        cursor = map.entries();
        return;
      }
      const [subject, value] = next.value;
      if (endOf(value) <= now) map.delete(subject);
    }
  };
}
