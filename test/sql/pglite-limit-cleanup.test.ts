/**
 * The SQL limit store on PGlite as callers pile up (#28): a take reads as few rows with 20,000
 * callers seen today as with 100, counted by PostgreSQL's own statistics (rows, not time), and a
 * database version 1 left upgrades with its counts and bans whole.
 */
import { describe, expect, it } from 'vitest';
import { pgliteClient, type SqlClient, sqlLimitStore } from '../../stores/sql/index.ts';
import { migrateTo } from '../../stores/sql/migrations.ts';
import { quotaWindows } from '../../src/index.ts';
import { pgliteSession } from './pglite-session.ts';

const LATEST = 2;
const T0 = Date.parse('2026-11-22T10:00:00Z');
/** Two minutes on: every minute window of T0 has ended, its day window has not. */
const LATER = T0 + 120_000;
const free = { perMinute: 60, perDay: 1000 };

const session = pgliteSession('limits');

/** A new schema made the session's search_path, migrated up to `version`. One test at a time uses the session. */
async function freshClient(version: number): Promise<SqlClient> {
  await session.newSchema();
  const client = pgliteClient(session.db());
  await migrateTo(client, version);
  return client;
}

/**
 * Rows the limit tables gave up since the statistics were last reset: heap rows read by sequential
 * scans plus index entries read by index scans. PGlite reports them once flushed, as PostgreSQL does.
 */
async function rowsRead(client: SqlClient): Promise<number> {
  await client.query('SELECT pg_stat_force_next_flush()');
  await client.query('SELECT pg_stat_clear_snapshot()');
  const [row] = await client.query(
    `SELECT (SELECT coalesce(sum(seq_tup_read), 0) FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname LIKE 'petstore_limit%')
          + (SELECT coalesce(sum(idx_tup_read), 0) FROM pg_stat_user_indexes WHERE schemaname = current_schema() AND relname LIKE 'petstore_limit%') AS n`,
  );
  return Number(row!.n);
}

/** Rows read per take, over 20 takes at LATER by new callers (`run` keeps them apart from another run's). */
async function rowsPerTake(client: SqlClient, run: string): Promise<number> {
  const count = 20;
  const store = sqlLimitStore(client);
  const windows = quotaWindows(LATER, free);
  // The session plans the function's statements on its first calls, and keeps those plans.
  for (let i = 0; i < 10; i++) await store.take(`key:warm-${run}-${i}`, windows, LATER);
  const before = await rowsRead(client);
  for (let i = 0; i < count; i++) await store.take(i % 2 ? `address:10.${run}.0.${i}` : `key:${run}-${i}`, windows, LATER);
  return ((await rowsRead(client)) - before) / count;
}

/** `n` anonymous callers counted once at T0, as version 1's tables hold them: a subject row, a minute and a day counter each. */
async function fillVersion1(client: SqlClient, n: number): Promise<void> {
  const [minute, day] = quotaWindows(T0, free);
  await client.query(`INSERT INTO petstore_limit_subjects (subject) SELECT 'address:10.0.' || n FROM generate_series(1, $1::int) n`, [n]);
  await client.query(
    `INSERT INTO petstore_limit_counters (subject, window_name, window_start, window_end, used)
     SELECT 'address:10.0.' || n, w.name, w.start_at, w.end_at, 1 FROM generate_series(1, $1::int) n,
       (VALUES ('minute', $2::bigint, $3::bigint), ('day', $4::bigint, $5::bigint)) w (name, start_at, end_at)`,
    [n, minute!.start, minute!.end, day!.start, day!.end],
  );
}

describe('sqlLimitStore on PGlite as callers pile up', () => {
  it('reads as few rows per take with 20,000 callers seen today as with 100, on a database version 1 left and upgraded', async () => {
    const few = await freshClient(1);
    await fillVersion1(few, 100);
    await migrateTo(few, LATEST);
    const fewRows = await rowsPerTake(few, '2');

    const many = await freshClient(1);
    await fillVersion1(many, 20_000);
    await migrateTo(many, LATEST);
    const manyRows = await rowsPerTake(many, '2');

    expect(fewRows).toBeLessThan(20);
    expect(manyRows).toBeLessThanOrEqual(fewRows + 5);
  }, 60_000);

  it('reads as few rows per take once 10,000 callers have taken today, with the plans made while there were 100', async () => {
    const client = await freshClient(LATEST);
    const takeAll = (from: number, to: number) => {
      const [minute, day] = quotaWindows(T0, free);
      // As that many takes leave them, in one statement.
      return client.query(
        `SELECT petstore_limit_take('address:10.1.' || n, ARRAY['minute', 'day'], ARRAY[$1, $2]::bigint[], ARRAY[$3, $4]::bigint[], ARRAY[60, 1000], $5::bigint)
         FROM generate_series($6::int, $7::int) n`,
        [minute!.start, day!.start, minute!.end, day!.end, T0, from, to],
      );
    };
    await takeAll(1, 100);
    // What PostgreSQL's autovacuum does, and a VACUUM on PGlite: the planner now knows the table is small.
    await client.query('ANALYZE');
    const fewRows = await rowsPerTake(client, '2');
    await takeAll(101, 10_000);
    expect(await client.query('SELECT count(*)::int AS n FROM petstore_limit_counters')).toEqual([{ n: 20_000 + 2 * 30 }]);
    const manyRows = await rowsPerTake(client, '3');
    expect(fewRows).toBeLessThan(20);
    expect(manyRows).toBeLessThanOrEqual(fewRows + 5);
  }, 60_000);

  it('upgrades a database version 1 left: counts, refusals and bans hold, and ended callers are still cleared a few per take', async () => {
    const client = await freshClient(1);
    const windows = quotaWindows(T0, free);
    const yesterday = T0 - 86_400_000;
    // Takes through version 1's function; the ban and the refusal as version 1's statements left them.
    const version1 = sqlLimitStore(client);
    for (let i = 0; i < 5; i++) await version1.take('key:counted', windows, T0);
    await version1.take('address:192.0.2.9', quotaWindows(yesterday, free), yesterday);
    await client.query(`INSERT INTO petstore_limit_subjects (subject, banned_until) VALUES ('key:banned', $1)`, [T0 + 900_000]);
    await client.query(`UPDATE petstore_limit_subjects SET refused_in = $1, refused = 1 WHERE subject = 'key:counted'`, [windows[0]!.start]);

    await migrateTo(client, LATEST);
    expect(await client.query('SELECT version FROM petstore_migrations ORDER BY version')).toEqual([{ version: 1 }, { version: 2 }]);
    const store = sqlLimitStore(client);
    expect(await store.take('key:other', windows, T0)).toEqual({ admitted: true, used: [1, 1] });
    expect(await store.take('key:banned', windows, T0)).toMatchObject({ admitted: false, bannedUntil: T0 + 900_000 });
    expect(await store.take('key:counted', windows, T0)).toEqual({ admitted: true, used: [6, 6] });
    expect(await store.reject('key:counted', windows[0]!, T0)).toBe(2);
    const subjects = await client.query('SELECT subject FROM petstore_limit_subjects ORDER BY subject');
    expect(subjects.map((row) => row.subject)).toEqual(['key:banned', 'key:counted', 'key:other']);
  });
});
