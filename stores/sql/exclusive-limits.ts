/** LimitStore for a database one process alone writes (PGlite in a locked `--data` directory): decided in memory, every count committed before its caller goes on. */
import type { LimitStore, QuotaWindow, Subject, TakeResult } from '../../src/index.ts';
import { type GroupCommit, integer, literal, type WriteSource } from './group-commit.ts';
import { PGLITE, type Row } from './client.ts';

/** The part of PGlite a load needs: statements without parameters, their rows. */
export interface QueryClient {
  exec(sql: string): Promise<readonly { readonly rows: readonly Row[] }[]>;
}

/** A window's count, as petstore_limit_counters holds it. */
interface Counter {
  readonly name: string;
  start: number;
  end: number;
  used: number;
}

/** A subject's row and counters, as in the database once its changes are committed. */
interface Entry {
  readonly subject: Subject;
  bannedUntil: number;
  refusedIn: number;
  refused: number;
  windowsEnd: number;
  readonly counters: Counter[];
  /** Changes made, and how many of them are committed: an entry may leave memory only when both agree. */
  changes: number;
  saved: number;
  /** `changes` when the flush in flight collected it. */
  collected: number;
  /** The subject row's values as last committed ('' when the database may not hold the row), and as the flush in flight writes them. */
  row: string;
  collectedRow: string;
}

/**
 * Subjects held in memory at most (about 300 bytes each). Past it the least recently used are
 * dropped, and read again from the database when next seen: the database holds every count.
 */
const MAX_ENTRIES = 50_000;

/**
 * Ended subjects are deleted every this many flushes, up to 4 for each subject written since
 * (plus 64), so the table stays about as large as a day's callers at a constant cost per write.
 * On every flush, the DELETE cost more than the writes it followed (BENCHMARKS.md, Findings):
 * most of it planning, which PGlite's simple protocol does anew each time.
 */
const CLEANUP_EVERY = 64;
/** How far behind the latest `now` the cleanup's cutoff stays: a caller with an earlier `now` still finds its row (see `row`). */
const CLEANUP_SLACK_MS = 60_000;

/**
 * The limit store and the {@link WriteSource} that writes it through, over one {@link GroupCommit}.
 * Exact while this process is the database's only writer: every decision is made on state in
 * memory, synchronously, and every change is committed (with others in one transaction) before
 * the call that made it resolves, so a request answered was counted durably. A refusal counts
 * nothing and is answered at once. A write that fails rejects its callers (a 500) and is tried
 * again with the next flush, so a failed request may stay counted: never fewer counts than answers.
 *
 * @example
 * const { limitStore, source } = exclusiveLimitStore(db, () => group);
 */
export function exclusiveLimitStore(client: QueryClient, group: () => GroupCommit): { limitStore: LimitStore; source: WriteSource } {
  const entries = new Map<Subject, Entry>();
  const loading = new Map<Subject, Promise<Entry>>();
  let dirty = new Set<Entry>();
  let inFlight: Entry[] = [];
  /** The latest `now` a caller gave: the clock ended state is judged by. */
  let latest = 0;

  /** Loads asked for since the last batch went out: one statement reads them all. */
  let batch = new Map<Subject, { resolve(entry: Entry): void; reject(error: unknown): void }>();

  function loadBatch() {
    const asked = batch;
    batch = new Map();
    loadEntries(client, [...asked.keys()]).then(
      (loaded) => {
        for (const [subject, { resolve }] of asked) resolve(loaded.get(subject)!);
      },
      (error: unknown) => {
        for (const { reject } of asked.values()) reject(error);
      },
    );
  }

  /** The subject's entry from the database, with other loads asked for in this turn of the event loop. */
  function load(subject: Subject): Promise<Entry> {
    let loaded = loading.get(subject);
    if (loaded === undefined) {
      if (batch.size === 0) setImmediate(loadBatch);
      loaded = new Promise<Entry>((resolve, reject) => batch.set(subject, { resolve, reject }));
      loading.set(subject, loaded);
      void loaded.finally(() => loading.delete(subject)).catch(() => {});
    }
    return loaded;
  }

  /** The subject's entry if in memory, marked most recently used. */
  function cached(subject: Subject, now: number): Entry | undefined {
    latest = Math.max(latest, now);
    const entry = entries.get(subject);
    if (entry !== undefined) {
      entries.delete(subject);
      entries.set(subject, entry);
    }
    return entry;
  }

  /** The subject's entry, read from the database if not in memory (in memory, no await: a take is a few µs). */
  async function entryOf(subject: Subject, now: number): Promise<Entry> {
    const loaded = await load(subject);
    // Another caller awaiting the same load may have put it in first.
    const entry = cached(subject, now) ?? loaded;
    if (!entries.has(subject)) {
      entries.set(subject, entry);
      if (entries.size > MAX_ENTRIES) evict();
    }
    return entry;
  }

  /** Drops the least recently used entries whose changes are all committed, down to 90 % of the bound. */
  function evict() {
    for (const entry of entries.values()) {
      if (entries.size <= MAX_ENTRIES * 0.9) return;
      if (entry.saved === entry.changes) entries.delete(entry.subject);
    }
  }

  /** Marks `entry` changed, and resolves once the flush holding the change has committed. */
  function changed(entry: Entry): Promise<void> {
    entry.changes++;
    dirty.add(entry);
    return group().next();
  }

  const limitStore: LimitStore = {
    database: PGLITE,
    async take(subject, windows, now): Promise<TakeResult> {
      const entry = cached(subject, now) ?? (await entryOf(subject, now));
      const used = windows.map((window) => usedIn(entry, window));
      if (entry.bannedUntil > now) return { admitted: false, used, bannedUntil: entry.bannedUntil };
      for (let i = 0; i < windows.length; i++) if (used[i]! >= windows[i]!.limit) return { admitted: false, used };
      for (let i = 0; i < windows.length; i++) {
        const window = windows[i]!;
        const counter = entry.counters.find((c) => c.name === window.name);
        if (counter === undefined) entry.counters.push({ name: window.name, start: window.start, end: window.end, used: 1 });
        else Object.assign(counter, { start: window.start, end: window.end, used: used[i]! + 1 });
        entry.windowsEnd = Math.max(entry.windowsEnd, window.end);
      }
      await changed(entry);
      return { admitted: true, used: used.map((count) => count + 1) };
    },
    async reject(subject, window, now) {
      const entry = cached(subject, now) ?? (await entryOf(subject, now));
      entry.refused = entry.refusedIn === window.start ? entry.refused + 1 : 1;
      entry.refusedIn = window.start;
      entry.windowsEnd = Math.max(entry.windowsEnd, window.end);
      const refused = entry.refused;
      await changed(entry);
      return refused;
    },
    async ban(subject, until, now) {
      const entry = cached(subject, now) ?? (await entryOf(subject, now));
      // A ban is never cut short; an unchanged one still waits for whatever of it is not committed.
      if (until > entry.bannedUntil) {
        entry.bannedUntil = until;
        await changed(entry);
      } else if (entry.saved !== entry.changes) {
        await group().next();
      }
    },
  };

  let flushesSinceCleanup = 0;
  let writtenSinceCleanup = 0;

  const source: WriteSource = {
    collect() {
      if (dirty.size === 0) return '';
      inFlight = [...dirty];
      dirty = new Set();
      const rows: string[] = [];
      const counters: string[] = [];
      for (const entry of inFlight) {
        entry.collected = entry.changes;
        const s = literal(entry.subject);
        entry.collectedRow = rowOf(entry);
        // Most writes change only counters: the row is written when it changed, or may be missing.
        // Its counters' windows end after `now`, so windows_end does too, and the cleanup, whose
        // cutoff lags, cannot have deleted an unchanged row. Upserting unchanged rows made each
        // flush slower (BENCHMARKS.md, Findings).
        if (entry.collectedRow !== entry.row) rows.push(entry.collectedRow);
        for (const c of entry.counters) counters.push(`(${s}, ${literal(c.name)}, ${integer(c.start)}, ${integer(c.end)}, ${integer(c.used)})`);
      }
      // Absolute values, not increments: this process is the only writer, and memory holds the truth.
      let sql = '';
      if (rows.length > 0) {
        sql += `INSERT INTO petstore_limit_subjects AS s (subject, banned_until, refused_in, refused, windows_end) VALUES ${rows.join(', ')}
          ON CONFLICT (subject) DO UPDATE SET banned_until = excluded.banned_until, refused_in = excluded.refused_in,
            refused = excluded.refused, windows_end = excluded.windows_end;\n`;
      }
      if (counters.length > 0) {
        sql += `INSERT INTO petstore_limit_counters AS c (subject, window_name, window_start, window_end, used) VALUES ${counters.join(', ')}
          ON CONFLICT (subject, window_name) DO UPDATE SET window_start = excluded.window_start, window_end = excluded.window_end, used = excluded.used;\n`;
      }
      writtenSinceCleanup += rows.length;
      if (++flushesSinceCleanup >= CLEANUP_EVERY) {
        // Written rows end after the cutoff, so they are never among these.
        sql += `DELETE FROM petstore_limit_subjects WHERE subject IN (
          SELECT e.subject FROM petstore_limit_subjects e WHERE e.ends_at <= ${integer(latest - CLEANUP_SLACK_MS)}
          ORDER BY e.ends_at LIMIT ${integer(64 + 4 * Math.min(writtenSinceCleanup, 4_096))});\n`;
        flushesSinceCleanup = 0;
        writtenSinceCleanup = 0;
      }
      return sql;
    },
    settle(committed) {
      for (const entry of inFlight) {
        if (committed) {
          entry.saved = entry.collected;
          entry.row = entry.collectedRow;
        } else {
          // Written again with the next flush, row and all.
          entry.row = '';
          dirty.add(entry);
        }
      }
      inFlight = [];
    },
  };
  return { limitStore, source };
}

/** The count of `window` in `entry`: none when its counter is of an earlier window. */
function usedIn(entry: Entry, window: QuotaWindow): number {
  const counter = entry.counters.find((c) => c.name === window.name);
  return counter !== undefined && counter.start === window.start ? counter.used : 0;
}

/** The entry's row of petstore_limit_subjects as SQL values. */
function rowOf(entry: Entry): string {
  return `(${literal(entry.subject)}, ${integer(entry.bannedUntil)}, ${integer(entry.refusedIn)}, ${integer(entry.refused)}, ${integer(entry.windowsEnd)})`;
}

/** Each subject's row and counters from the database, or an empty entry for a subject it does not hold. */
async function loadEntries(client: QueryClient, subjects: readonly Subject[]): Promise<Map<Subject, Entry>> {
  const [result] = await client.exec(
    `SELECT s.subject, s.banned_until, s.refused_in, s.refused, s.windows_end, c.window_name, c.window_start, c.window_end, c.used
     FROM petstore_limit_subjects s LEFT JOIN petstore_limit_counters c ON c.subject = s.subject
     WHERE s.subject IN (${subjects.map(literal).join(', ')})`,
  );
  const entries = new Map<Subject, Entry>();
  for (const row of result?.rows ?? []) {
    const subject = String(row.subject) as Subject;
    let entry = entries.get(subject);
    if (entry === undefined) {
      entry = newEntry(subject);
      Object.assign(entry, {
        bannedUntil: Number(row.banned_until),
        refusedIn: Number(row.refused_in),
        refused: Number(row.refused),
        windowsEnd: Number(row.windows_end),
      });
      entry.row = rowOf(entry);
      entries.set(subject, entry);
    }
    if (row.window_name === null || row.window_name === undefined) continue;
    entry.counters.push({ name: String(row.window_name), start: Number(row.window_start), end: Number(row.window_end), used: Number(row.used) });
  }
  for (const subject of subjects) if (!entries.has(subject)) entries.set(subject, newEntry(subject));
  return entries;
}

/** A subject with no state, as the database holds none for it. */
function newEntry(subject: Subject): Entry {
  return { subject, bannedUntil: 0, refusedIn: 0, refused: 0, windowsEnd: 0, counters: [], changes: 0, saved: 0, collected: 0, row: '', collectedRow: '' };
}
