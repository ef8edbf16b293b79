/**
 * The stores of the command's `--data` (stores/sql/exclusive.ts) on PGlite: both conformance
 * suites, what is committed when a call resolves, what a second opening reads back, a write that
 * fails, and many callers' writes sharing a transaction.
 */
import { describe, expect, it } from 'vitest';
import { quotaWindows } from '../../src/index.ts';
import { openExclusiveStores } from '../../stores/sql/exclusive.ts';
import type { QueryClient } from '../../stores/sql/exclusive-limits.ts';
import { migrate, pgliteClient } from '../../stores/sql/index.ts';
import { describeLimitStoreConformance, describePetStorageConformance } from '../../testing/conformance/index.ts';
import { pgliteSession } from './pglite-session.ts';

const session = pgliteSession('exclusive');

/** PGlite with its exec counted, and made to fail while `failing` is set. */
interface Watched extends QueryClient {
  execs: number;
  failing: boolean;
}

/** A new migrated schema made the session's search_path (one test at a time uses the session), and a watched client on it. */
async function freshDatabase(): Promise<Watched> {
  await session.newSchema();
  await migrate(pgliteClient(session.db()));
  const watched: Watched = {
    execs: 0,
    failing: false,
    async exec(sql) {
      watched.execs++;
      if (watched.failing) throw new Error('the disk is full (on purpose)');
      return session.db().exec(sql);
    },
  };
  return watched;
}

const T0 = Date.parse('2026-11-22T10:00:00Z');
const free = { perMinute: 60, perDay: 1000 };

describePetStorageConformance('exclusive stores on PGlite', async () => (await openExclusiveStores(await freshDatabase(), T0)).storage);
describeLimitStoreConformance('exclusive stores on PGlite', async () => (await openExclusiveStores(await freshDatabase(), T0)).limitStore);

describe('the exclusive stores (petstore-service --data)', () => {
  it('have committed a create, a count, a refusal and a ban by the time each call resolves', async () => {
    const client = await freshDatabase();
    const { storage, limitStore } = await openExclusiveStores(client, T0);
    const pet = await storage.create({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(await session.db().query('SELECT id, name_json FROM petstore_pets')).toMatchObject({ rows: [{ id: pet.id, name_json: '"Rex"' }] });
    const windows = quotaWindows(T0, free);
    await limitStore.take('key:a', windows, T0);
    expect((await session.db().query('SELECT window_name, used FROM petstore_limit_counters ORDER BY window_name')).rows).toEqual([
      { window_name: 'day', used: 1 },
      { window_name: 'minute', used: 1 },
    ]);
    expect(await limitStore.reject('key:a', windows[0]!, T0)).toBe(1);
    await limitStore.ban('key:a', T0 + 60_000, T0);
    expect((await session.db().query('SELECT refused, banned_until FROM petstore_limit_subjects')).rows).toEqual([{ refused: 1, banned_until: T0 + 60_000 }]);
  });

  it('read back, opened again on the database, every pet, idempotency key, count and ban the first opening wrote', async () => {
    const client = await freshDatabase();
    const first = await openExclusiveStores(client, T0);
    const windows = quotaWindows(T0, free);
    await first.storage.create({ name: 'one', categoryId: 1 });
    const once = await first.storage.createOnce('k', 'print', { name: 'two', categoryId: 2, status: 'sold' }, T0 + 1_000, T0);
    for (let i = 0; i < 3; i++) await first.limitStore.take('key:counted', windows, T0);
    await first.limitStore.ban('address:192.0.2.1', T0 + 900_000, T0);
    await first.drain();

    const second = await openExclusiveStores(client, T0);
    expect(await second.storage.list({ after: 0, limit: 10 })).toEqual([
      { id: 1, name: 'one', categoryId: 1 },
      { id: 2, name: 'two', categoryId: 2, status: 'sold' },
    ]);
    expect(await second.storage.list({ status: 'sold', after: 0, limit: 10 })).toEqual([once.record.pet]);
    expect(await second.storage.createOnce('k', 'print', { name: 'again', categoryId: 3 }, T0 + 1_000, T0 + 1)).toEqual({
      record: once.record,
      created: false,
    });
    expect(await second.storage.create({ name: 'three', categoryId: 3 })).toEqual({ id: 3, name: 'three', categoryId: 3 });
    expect(await second.limitStore.take('key:counted', windows, T0)).toEqual({ admitted: true, used: [4, 4] });
    expect(await second.limitStore.take('address:192.0.2.1', windows, T0)).toMatchObject({ admitted: false, bannedUntil: T0 + 900_000 });
  });

  it('store names and keys with quotes, backslashes, U+0000 and emoji as given', async () => {
    const client = await freshDatabase();
    const first = await openExclusiveStores(client, T0);
    const name = `O'Brien \\ "x" \u0000 ''; DROP TABLE petstore_pets; -- 😀`;
    const key = `key with ' and \\ and $$`;
    const { record } = await first.storage.createOnce(key, `print'\\`, { name, categoryId: -(2 ** 53 - 1) }, T0 + 1_000, T0);
    const second = await openExclusiveStores(client, T0);
    expect(await second.storage.get(record.pet.id)).toEqual({ id: record.pet.id, name, categoryId: -(2 ** 53 - 1) });
    expect(await second.storage.createOnce(key, 'other', { name: 'no', categoryId: 1 }, T0 + 1_000, T0)).toEqual({ record, created: false });
  });

  it('reject the callers of a write that fails, leave no pet of it behind, and give the next create the next id', async () => {
    const client = await freshDatabase();
    const { storage, limitStore } = await openExclusiveStores(client, T0);
    await storage.create({ name: 'before', categoryId: 1 });
    await limitStore.take('key:a', quotaWindows(T0, free), T0);
    client.failing = true;
    const failed = await Promise.allSettled([storage.create({ name: 'lost', categoryId: 1 }), limitStore.take('key:a', quotaWindows(T0, free), T0)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await storage.list({ after: 0, limit: 10 })).toEqual([{ id: 1, name: 'before', categoryId: 1 }]);
    client.failing = false;
    expect(await storage.create({ name: 'after', categoryId: 1 })).toEqual({ id: 2, name: 'after', categoryId: 1 });
    expect((await session.db().query('SELECT id FROM petstore_pets ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    // The failed take stays counted (never fewer counts than answers), and is written with the next flush.
    expect(await limitStore.take('key:a', quotaWindows(T0, free), T0)).toEqual({ admitted: true, used: [3, 3] });
    expect((await session.db().query(`SELECT used FROM petstore_limit_counters WHERE window_name = 'day'`)).rows).toEqual([{ used: 3 }]);
  });

  it('delete ended callers from the database as they write, keeping live counts and bans', async () => {
    const client = await freshDatabase();
    const { limitStore } = await openExclusiveStores(client, T0);
    const windows = quotaWindows(T0, free);
    for (let i = 0; i < 100; i++) await limitStore.take(`address:10.0.0.${i}`, windows, T0);
    await limitStore.ban('key:banned', T0 + 3 * 86_400_000, T0);
    const later = T0 + 2 * 86_400_000;
    // A flush at a time: the cleanup runs every 64 flushes.
    const roomy = quotaWindows(later, { perMinute: 1_000, perDay: 1_000 });
    for (let i = 0; i < 128; i++) await limitStore.take('key:live', roomy, later);
    const subjects = (await session.db().query<{ subject: string }>('SELECT subject FROM petstore_limit_subjects ORDER BY subject')).rows;
    expect(subjects.map((row) => row.subject)).toEqual(['key:banned', 'key:live']);
    expect(await limitStore.take('key:live', roomy, later)).toEqual({ admitted: true, used: [129, 129] });
  });

  it('write 200 creates and 200 takes made at once in a few transactions, not 400', async () => {
    const client = await freshDatabase();
    const { storage, limitStore } = await openExclusiveStores(client, T0);
    const before = client.execs;
    const windows = quotaWindows(T0, { perMinute: 1_000, perDay: 1_000 });
    const pets = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        await limitStore.take(`key:${i % 7}`, windows, T0);
        return storage.create({ name: `pet ${i}`, categoryId: i });
      }),
    );
    expect(pets.map((pet) => pet.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // One load of the 7 subjects, then the takes' transaction and the creates'.
    expect(client.execs - before).toBe(3);
    expect((await session.db().query('SELECT sum(used)::int AS n FROM petstore_limit_counters WHERE window_name = $1', ['day'])).rows).toEqual([{ n: 200 }]);
  });
});
