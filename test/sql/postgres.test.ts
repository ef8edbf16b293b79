/**
 * The SQL stores on a real PostgreSQL (a throwaway cluster, see postgres-server.ts), as the
 * non-superuser role `petstore`: conformance, migrations racing, two servers sharing one database,
 * a pager racing creates, and the database going down under load.
 */
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrate, postgresClient, sqlLimitStore, sqlPetStorage, type SqlClient } from '../../adapters/sql/index.ts';
import { describeLimitStoreConformance, describePetStorageConformance } from '../../src/conformance/index.ts';
import { postPet, startServer, type TestServer } from '../helpers/server.ts';
import { startPostgres, type TestPostgres } from './postgres-server.ts';

let pg: TestPostgres;
const pools: postgres.Sql[] = [];

beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterEach(async () => {
  await Promise.all(pools.splice(0).map((sql) => sql.end({ timeout: 1 })));
});
afterAll(async () => {
  await pg?.stop();
});

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

  it('migrates an empty database from 5 clients at once as a role that owns it and is no superuser, recording version 1 once; running again changes nothing', async () => {
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
    expect(first.versions.map((row) => row.version)).toEqual([1]);
    expect(first.objects.map((row) => row.name)).toEqual(expect.arrayContaining(['petstore_pets', 'petstore_pet_ids', 'petstore_limit_take']));

    await Promise.all(clients.map((client) => migrate(client)));
    expect(await schemaOf(clients[0]!)).toEqual(first);
    expect(await sqlPetStorage(clients[1]!).create({ name: 'first', categoryId: 1 })).toEqual({ id: 1, name: 'first', categoryId: 1 });
  });
});

/** One instant for every server: quota windows never roll over mid-test. */
const NOW = Date.parse('2026-11-22T10:00:00Z');
const apiKeys = { 'shared-free': 'free', 'test-key-0123456789': { perMinute: 1_000_000, perDay: 1_000_000 } } as const;

/** Two servers on one database, each with its own pool, migrated at once as two instances starting together. */
async function twoServers(): Promise<[TestServer, TestServer]> {
  const url = await pg.freshDatabase();
  const clients = [postgresClient(pool(url)), postgresClient(pool(url))];
  await Promise.all(clients.map((client) => migrate(client)));
  const [a, b] = await Promise.all(
    clients.map((client) => startServer({ apiKeys, storage: sqlPetStorage(client), limitStore: sqlLimitStore(client), now: () => NOW })),
  );
  return [a!, b!];
}

/** The `rel="next"` target of a response's Link header, resolved against the URL it was fetched from. */
function nextUrl(response: Response, from: string): string | undefined {
  const target = /<([^>]*)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  return target === undefined ? undefined : new URL(target, from).href;
}

/** The part of an API URL after the base path: what `server.api` takes. Both servers have the same base path. */
function apiPath(url: string, server: TestServer): string {
  const target = new URL(url);
  return target.pathname.slice(new URL(server.url).pathname.length) + target.search;
}

/** Every pet id, following Link from the first page. */
async function fullPass(server: TestServer, limit: number): Promise<number[]> {
  const ids: number[] = [];
  for (let url: string | undefined = `${server.url}/pets?limit=${limit}`; url; ) {
    const response = await server.api(apiPath(url, server));
    expect(response.status).toBe(200);
    ids.push(...(await response.json()).map((pet: { id: number }) => pet.id));
    url = nextUrl(response, url);
  }
  return ids;
}

describe('two servers sharing one PostgreSQL database', () => {
  it('gives 1,000 concurrent creates split between them the ids 1..1000, and a full pass lists each once', async () => {
    const servers = await twoServers();
    const responses = await Promise.all(Array.from({ length: 1000 }, (_, i) => postPet(servers[i % 2]!, { name: `pet ${i}`, categoryId: i })));
    expect(responses.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    const ids = (await Promise.all(responses.map((r) => r.json()))).map((pet) => pet.id).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(await fullPass(servers[1]!, 100)).toEqual(ids);
  }, 60_000);

  it('lets a client paging by 7 while 500 creates run see every acknowledged pet once, and none behind its cursor', async () => {
    const servers = await twoServers();
    // Creates: 10 clients at a time, alternating servers, every other one through an Idempotency-Key
    // (the other way a pet is stored); each id is recorded when its 201 arrives.
    const acknowledged: number[] = [];
    let createsDone = false;
    const creates = (async () => {
      let next = 0;
      const client = async () => {
        for (let i = next++; i < 500; i = next++) {
          const headers: Record<string, string> = i % 2 ? { 'idempotency-key': `create-${i}` } : {};
          const response = await postPet(servers[i % 2]!, { name: `pet ${i}`, categoryId: i }, { headers });
          expect(response.status).toBe(201);
          acknowledged.push((await response.json()).id);
        }
      };
      await Promise.all(Array.from({ length: 10 }, client));
      createsDone = true;
    })();

    // The pager follows Link, asking the two servers in turn. At the end of the list (no Link) it asks
    // again from its last cursor, until it has reached the end on a request sent after every create
    // was acknowledged: that last pass must have brought it every acknowledged pet.
    const seen: number[] = [];
    let url = `${servers[0]!.url}/pets?limit=7`;
    let cursor = 0; // the id the current URL's cursor names: the last pet of the page whose Link it came from
    let passes = 0;
    for (let request = 0; ; request++) {
      const server = servers[request % 2]!;
      const finalPass = createsDone;
      const acknowledgedBefore = acknowledged.slice();
      const response = await server.api(apiPath(url, server));
      expect(response.status).toBe(200);
      const page: number[] = (await response.json()).map((pet: { id: number }) => pet.id);
      const next = nextUrl(response, server.url);
      // Never behind the cursor, in id order, and nothing new below what it has already seen: a pet
      // that showed up there would be missed by a pager that had moved on.
      expect(page.every((id, i) => id > cursor && (i === 0 || id > page[i - 1]!))).toBe(true);
      const highest = seen.at(-1) ?? 0;
      expect(page.filter((id) => id <= highest && !seen.includes(id))).toEqual([]);
      seen.push(...page.filter((id) => id > highest));
      // Every pet acknowledged before this request that this page covers is here or seen before.
      const covered = next ? page.at(-1)! : Infinity;
      expect(acknowledgedBefore.filter((id) => id <= covered && !seen.includes(id))).toEqual([]);
      if (next) {
        url = next;
        cursor = page.at(-1)!;
      } else {
        passes++;
        if (finalPass) break;
      }
    }
    await creates;

    expect(acknowledged).toHaveLength(500);
    expect(seen).toEqual([...acknowledged].sort((a, b) => a - b));
    expect(passes).toBeGreaterThan(1); // it did reach the end while creates were still running
    expect(await fullPass(servers[0]!, 100)).toEqual(seen);
  }, 60_000);

  it('admits exactly 60 of 100 concurrent requests of one free key spread over both, with only the PostgreSQL limit store', async () => {
    const servers = await twoServers();
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => servers[i % 2]!.api('/pets', { headers: { authorization: 'Bearer shared-free' } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(60);
    expect(statuses.filter((s) => s !== 429 && s !== 200)).toEqual([]);
  }, 60_000);
});

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
      const started = Date.now();
      const response = await postPet(server, { name: 'stuck', categoryId: 1 });
      const elapsed = Date.now() - started;
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ code: 'internal_error', message: expect.any(String), status: 500 });
      expect(elapsed).toBeGreaterThanOrEqual(300);
      expect(elapsed).toBeLessThan(2_000);
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
  it('answers JSON 500s quickly while PostgreSQL is down, creates again by itself once it is back, and loses no acknowledged pet', async () => {
    const url = await pg.freshDatabase();
    const client = postgresClient(pool(url), { timeoutMs: 2_000 });
    await migrate(client);
    const errors: unknown[] = [];
    const server = await startServer({ storage: sqlPetStorage(client), limitStore: sqlLimitStore(client), now: () => NOW, onError: (error) => errors.push(error) });

    type Phase = 'up' | 'stopping' | 'down' | 'starting' | 'back';
    type Answer = { sent: Phase; received: Phase; status: number; ms: number; name: string; key: string | undefined; body: { id?: number } };
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
          const started = Date.now();
          const response = await postPet(server, { name: `pet ${i}`, categoryId: i }, { headers: key ? { 'idempotency-key': key } : {} });
          const body = await response.json();
          answers.push({ sent, received: phase, status: response.status, ms: Date.now() - started, name: `pet ${i}`, key, body });
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

    // Down: every answer a JSON 500 (checked in the stream), none a hang: each came within the 2 s deadline.
    const down = answers.filter((a) => a.sent === 'down' && a.received === 'down');
    expect(down.length).toBeGreaterThanOrEqual(46);
    expect(down.filter((a) => a.status !== 500)).toEqual([]);
    expect(errors.length).toBeGreaterThan(0);
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(3_000);

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
