/**
 * The SQL stores on a real PostgreSQL (a throwaway cluster, see postgres-server.ts), as the
 * non-superuser role `petstore`: conformance, migrations racing, a stuck statement, and the database
 * going down under load. Two instances sharing one database: ../cli/many-instances.test.ts, as commands.
 */
// @module-tag postgres (skipped without PostgreSQL, failed under CI: test/helpers/system-parts.ts)
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quotaWindows } from '../../src/index.ts';
import { migrate, postgresClient, sqlLimitStore, sqlPetStorage, type SqlClient } from '../../stores/sql/index.ts';
import { migrateTo } from '../../stores/sql/migrations.ts';
import { describeLimitStoreConformance, describePetStorageConformance } from '../../testing/conformance/index.ts';
import { postPet, startServer } from '../helpers/server.ts';
import { startPostgres, type TestPostgres } from './postgres-server.ts';

let pg: TestPostgres;
const pools: postgres.Sql[] = [];

// initdb, then pg_ctl start, which waits up to 60 s itself.
beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterEach(async () => {
  await Promise.all(pools.splice(0).map((sql) => sql.end({ timeout: 1 })));
});
// pg_ctl stop waits up to 60 s itself; the hook's default 10 s ran out in a full run on a busy machine.
afterAll(async () => {
  await pg?.stop();
}, 90_000);

/**
 * A `postgres` pool as a service would configure one for outages: a connection attempt gives up
 * after 2 s (default 30), and a closed connection reconnects 0.1 s after it was needed (by default
 * the wait grows with failures to up to 20 s, so after an outage the pool would take that long to
 * come back). Notices (the server's shutdown warning) stay out of the test output.
 */
function pool(url: string, options: postgres.Options<Record<string, never>> = {}): postgres.Sql {
  const sql = postgres(url, { connect_timeout: 2, backoff: () => 0.1, onnotice: () => {}, ...options });
  pools.push(sql);
  return sql;
}

/** A client on a new, migrated database of its own. */
async function freshClient(): Promise<SqlClient> {
  const client = postgresClient(pool(await pg.freshDatabase()));
  await migrate(client);
  return client;
}

describePetStorageConformance('sqlPetStorage on PostgreSQL', async () => sqlPetStorage(await freshClient()));
describeLimitStoreConformance('sqlLimitStore on PostgreSQL', async () => sqlLimitStore(await freshClient()));

describe('migrations on PostgreSQL', () => {
  /** What a migration would change: the stores' objects with their oids (a re-created one gets a new oid), and the recorded versions. */
  async function schemaOf(client: SqlClient) {
    const objects = await client.query(
      `SELECT c.oid::text AS oid, c.relname AS name FROM pg_class c WHERE c.relname LIKE 'petstore%'
       UNION ALL SELECT p.oid::text, p.proname FROM pg_proc p WHERE p.proname LIKE 'petstore%' ORDER BY 2`,
    );
    const versions = await client.query('SELECT version, applied_at::text FROM petstore_migrations ORDER BY version');
    return { objects, versions };
  }

  it('migrates an empty database from 5 clients at once as a role that owns it and is no superuser, recording versions 1 and 2 once; running again changes nothing', async () => {
    const url = await pg.freshDatabase();
    const clients = Array.from({ length: 5 }, () => postgresClient(pool(url, { max: 1 })));
    expect(
      await clients[0]!.query(
        `SELECT r.rolsuper, r.rolcreatedb, r.rolcreaterole, d.datdba = r.oid AS owns_database
         FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()`,
      ),
    ).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false, owns_database: true }]);

    await Promise.all(clients.map((client) => migrate(client)));
    const first = await schemaOf(clients[0]!);
    expect(first.versions.map((row) => row.version)).toEqual([1, 2]);
    expect(first.objects.map((row) => row.name)).toEqual(expect.arrayContaining(['petstore_pets', 'petstore_pet_ids', 'petstore_limit_take']));

    await Promise.all(clients.map((client) => migrate(client)));
    expect(await schemaOf(clients[0]!)).toEqual(first);
    expect(await sqlPetStorage(clients[1]!).create({ name: 'first', categoryId: 1 })).toEqual({ id: 1, name: 'first', categoryId: 1 });
  });

  it('upgrades a database version 1 left from 5 clients at once, keeping its pets, counts and bans', async () => {
    const url = await pg.freshDatabase();
    const clients = Array.from({ length: 5 }, () => postgresClient(pool(url, { max: 1 })));
    await migrateTo(clients[0]!, 1);
    const windows = quotaWindows(NOW, { perMinute: 60, perDay: 1000 });
    await sqlPetStorage(clients[0]!).create({ name: 'kept', categoryId: 1 });
    for (let i = 0; i < 3; i++) await sqlLimitStore(clients[0]!).take('key:counted', windows, NOW);
    await sqlLimitStore(clients[0]!).ban('key:banned', NOW + 900_000, NOW);

    await Promise.all(clients.map((client) => migrate(client)));
    expect((await schemaOf(clients[0]!)).versions.map((row) => row.version)).toEqual([1, 2]);
    const store = sqlLimitStore(clients[1]!);
    expect(await store.take('key:counted', windows, NOW)).toEqual({ admitted: true, used: [4, 4] });
    expect(await store.take('key:banned', windows, NOW)).toMatchObject({ admitted: false, bannedUntil: NOW + 900_000 });
    expect(await sqlPetStorage(clients[2]!).get(1)).toEqual({ id: 1, name: 'kept', categoryId: 1 });
  });
});

/** One instant for every server: quota windows never roll over mid-test. */
const NOW = Date.parse('2026-11-22T10:00:00Z');

describe('PostgreSQL not answering', () => {
  it('answers a create stuck behind a lock with a JSON 500 after timeoutMs, and the cancelled create never lands', async () => {
    const url = await pg.freshDatabase();
    const client = postgresClient(pool(url), { timeoutMs: 300 });
    await migrate(client);
    const server = await startServer({ storage: sqlPetStorage(client), now: () => NOW });
    const watcher = pool(url, { max: 1 });
    // Another session holds the id row's lock, which every create needs.
    await pool(url, { max: 1 }).begin(async (holder) => {
      await holder`SELECT last_id FROM petstore_pet_ids FOR UPDATE`;
      // The lock is held until this answer comes, so only timeoutMs can end the create: without it the test hangs.
      const response = await postPet(server, { name: 'stuck', categoryId: 1 });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ code: 'internal_error', message: expect.any(String), status: 500 });
      // The statement was cancelled on the server: once nothing waits on a lock, releasing ours creates nothing.
      const waiting = async () =>
        (await watcher`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!.n;
      while ((await waiting()) > 0);
    });
    expect(await client.query('SELECT id FROM petstore_pets')).toEqual([]);
    const after = await postPet(server, { name: 'after', categoryId: 1 });
    expect(after.status).toBe(201);
    expect((await after.json()).id).toBe(1);
  });
});

describe('a PostgreSQL outage under load', () => {
  it('answers JSON 500s while PostgreSQL is down without waiting for it, creates again by itself once it is back, and loses no acknowledged pet', async () => {
    const url = await pg.freshDatabase();
    const client = postgresClient(pool(url), { timeoutMs: 2_000 });
    await migrate(client);
    const errors: unknown[] = [];
    const server = await startServer({
      storage: sqlPetStorage(client),
      limitStore: sqlLimitStore(client),
      now: () => NOW,
      onError: (error) => errors.push(error),
    });

    type Phase = 'up' | 'stopping' | 'down' | 'starting' | 'back';
    type Answer = { sent: Phase; received: Phase; status: number; name: string; key: string | undefined; body: { id?: number } };
    let phase: Phase = 'up';
    const answers: Answer[] = [];
    let wanted: { reached: () => boolean; resolve: () => void } | undefined;

    // Four clients creating back to back, every other create with an Idempotency-Key.
    let stopping = false;
    let sequence = 0;
    const stream = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!stopping) {
          const i = sequence++;
          const sent = phase;
          const key = i % 2 ? `outage-${i}` : undefined;
          const response = await postPet(server, { name: `pet ${i}`, categoryId: i }, { headers: key ? { 'idempotency-key': key } : {} });
          const body = await response.json();
          answers.push({ sent, received: phase, status: response.status, name: `pet ${i}`, key, body });
          if (response.status !== 201) expect(body).toEqual({ code: 'internal_error', message: expect.any(String), status: 500 });
          if (wanted?.reached()) wanted.resolve();
        }
      }),
    );
    /** Resolves once `reached()` holds, checked as each answer arrives (never slept on); a failed expectation in the stream ends the wait too. */
    const until = (reached: () => boolean) => Promise.race([new Promise<void>((resolve) => (wanted = { reached, resolve })), stream]);
    const count = (received: Phase, status?: number) => answers.filter((a) => a.received === received && (status === undefined || a.status === status)).length;

    await until(() => count('up', 201) >= 50);
    phase = 'stopping';
    await pg.stopServer('immediate');
    phase = 'down';
    await until(() => count('down') >= 50);
    phase = 'starting';
    await pg.startServer();
    phase = 'back';
    await until(() => count('back', 201) >= 50);
    stopping = true;
    await stream;

    // Down: every answer a JSON 500 (checked in the stream), and they kept coming: PostgreSQL started again
    // only after 50 answers arrived while it was down, so creates that waited for it would have hung the test.
    const down = answers.filter((a) => a.sent === 'down' && a.received === 'down');
    expect(down.length).toBeGreaterThanOrEqual(46);
    expect(down.filter((a) => a.status !== 500)).toEqual([]);
    expect(errors.length).toBeGreaterThan(0);

    // Every create a retry with its key settles is stored once; every pet acknowledged is stored, whole.
    for (const failed of answers.filter((a) => a.status !== 201 && a.key)) {
      const retried = await postPet(server, { name: failed.name, categoryId: Number(failed.name.slice(4)) }, { headers: { 'idempotency-key': failed.key! } });
      expect(retried.status).toBe(201);
      answers.push({ ...failed, status: 201, body: await retried.json() });
    }
    const stored = await postgresClient(pool(url)).query('SELECT id, name_json FROM petstore_pets ORDER BY id');
    const names = new Map(stored.map((row) => [Number(row.id), JSON.parse(String(row.name_json)) as string]));
    const acknowledged = answers.filter((a) => a.status === 201);
    expect(acknowledged.filter((a) => names.get(a.body.id!) !== a.name)).toEqual([]);
    const keyed = new Set(answers.filter((a) => a.key).map((a) => a.name));
    expect([...names.values()].filter((name) => keyed.has(name)).sort()).toEqual([...keyed].sort());
  }, 60_000);
});
