/** The journals' memory: each world's newest exchanges, and one budget of bytes all worlds' journals share, the oldest exchange anywhere out first. */
import type { RecordedExchange } from './journal.ts';

/**
 * What an exchange costs beside its strings: the object, its two header records, the list's links.
 *
 * @example
 * exchangeBytes({ ...exchange, path: '', url: '' }) >= EXCHANGE_OVERHEAD_BYTES; // true
 */
export const EXCHANGE_OVERHEAD_BYTES = 256;

/**
 * What an exchange counts against a {@link JournalBudget}: 2 bytes per UTF-16 unit of each of its
 * strings (header names included; a string held in V8's two-byte form takes that, a Latin-1 one
 * half), plus {@link EXCHANGE_OVERHEAD_BYTES}. A bound on what is held, not a measure of the heap.
 *
 * @example
 * exchangeBytes(exchange); // 256 + 2 × (method + path + query + url + bodies + time + every header's name and value)
 */
export function exchangeBytes(exchange: RecordedExchange): number {
  let units = exchange.method.length + exchange.path.length + exchange.query.length + exchange.url.length;
  units += exchange.requestBody.length + exchange.responseBody.length + exchange.time.length;
  for (const name in exchange.requestHeaders) units += name.length + exchange.requestHeaders[name]!.length;
  for (const name in exchange.responseHeaders) units += name.length + exchange.responseHeaders[name]!.length;
  return EXCHANGE_OVERHEAD_BYTES + 2 * units;
}

/** One exchange kept: a link of its world's list (oldest to newest) and of the budget's list across worlds. */
interface Kept {
  readonly exchange: RecordedExchange;
  readonly bytes: number;
  readonly world: WorldList;
  /** The next newer in its world. */
  nextInWorld: Kept | undefined;
  /** The next older and newer in every world, for the budget. */
  older: Kept | undefined;
  newer: Kept | undefined;
}

/** A world's exchanges, oldest first. */
interface WorldList {
  oldest: Kept | undefined;
  newest: Kept | undefined;
  count: number;
}

/**
 * The bytes the journals of every world hold together, at most `maxBytes`: recording past it drops
 * the oldest exchange of any world, so a sandbox that floods its journal takes the room of the
 * oldest entries anywhere; clearing a world's journal (a reset, a sandbox deleted) gives its bytes back.
 *
 * @example
 * const budget = journalBudget(64 * 1024 * 1024);
 * const main = createJournal(10_000, budget);
 * const sandbox = createJournal(10_000, budget);
 */
export interface JournalBudget {
  readonly maxBytes: number;
  /** What every journal on it holds now, counted by {@link exchangeBytes}. */
  readonly bytes: number;
}

/** The budget's list across worlds: an internal of this module, reached through the budget. */
interface Ledger {
  oldest: Kept | undefined;
  newest: Kept | undefined;
  bytes: number;
}

const ledgers = new WeakMap<JournalBudget, Ledger>();

/**
 * A {@link JournalBudget} of `maxBytes`, or a TypeError for one that is not a whole number, 1 or more.
 *
 * @example
 * const budget = journalBudget(64 * 1024 * 1024);
 */
export function journalBudget(maxBytes: number): JournalBudget {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new TypeError(`journal budget must be a whole number of bytes, 1 or more, got ${String(maxBytes)}`);
  const ledger: Ledger = { oldest: undefined, newest: undefined, bytes: 0 };
  const budget: JournalBudget = {
    maxBytes,
    get bytes() {
      return ledger.bytes;
    },
  };
  ledgers.set(budget, ledger);
  return budget;
}

/** Takes `kept`, its world's oldest, out of its world and of the ledger. */
function drop(ledger: Ledger, kept: Kept): void {
  const { world } = kept;
  world.oldest = kept.nextInWorld;
  if (world.oldest === undefined) world.newest = undefined;
  world.count--;
  if (kept.older) kept.older.newer = kept.newer;
  else ledger.oldest = kept.newer;
  if (kept.newer) kept.newer.older = kept.older;
  else ledger.newest = kept.older;
  ledger.bytes -= kept.bytes;
}

/**
 * A world's journal: its newest exchanges, at most `size` of them, within a budget it may share.
 *
 * @example
 * const journal = createJournal(10_000);
 * journal.record(exchange);
 * journal.entries().length; // 1
 */
export interface Journal {
  record(exchange: RecordedExchange): void;
  /** The exchanges kept, oldest first: a copy, unchanged by later ones. */
  entries(): RecordedExchange[];
  clear(): void;
}

/** The default budget of a journal made alone: the admin option's default, 16 MiB. */
const ALONE_BYTES = 16 * 1024 * 1024;

/**
 * A {@link Journal} of at most `size` exchanges, within `budget` (shared with the other worlds'
 * journals made on it). Each record costs the same whether the journal is full or empty: both
 * lists drop from their ends, and an exchange dropped for the budget is always its world's oldest.
 * An exchange larger than the whole budget is kept alone, every other dropped: the newest stays.
 *
 * @example
 * const journal = createJournal(2, journalBudget(1024 * 1024));
 */
export function createJournal(size: number, budget: JournalBudget = journalBudget(ALONE_BYTES)): Journal {
  if (!Number.isSafeInteger(size) || size < 1) throw new TypeError(`journalSize must be a whole number, 1 or more, got ${String(size)}`);
  const ledger = ledgers.get(budget);
  if (!ledger) throw new TypeError('createJournal: budget must be made by journalBudget()');
  const world: WorldList = { oldest: undefined, newest: undefined, count: 0 };
  return {
    record(exchange) {
      const kept: Kept = { exchange, bytes: exchangeBytes(exchange), world, nextInWorld: undefined, older: ledger.newest, newer: undefined };
      if (world.newest) world.newest.nextInWorld = kept;
      else world.oldest = kept;
      world.newest = kept;
      world.count++;
      if (ledger.newest) ledger.newest.newer = kept;
      else ledger.oldest = kept;
      ledger.newest = kept;
      ledger.bytes += kept.bytes;
      if (world.count > size) drop(ledger, world.oldest!);
      while (ledger.bytes > budget.maxBytes && ledger.oldest !== kept) drop(ledger, ledger.oldest!);
    },
    entries() {
      const entries: RecordedExchange[] = [];
      for (let kept = world.oldest; kept; kept = kept.nextInWorld) entries.push(kept.exchange);
      return entries;
    },
    clear() {
      while (world.oldest) drop(ledger, world.oldest);
    },
  };
}
