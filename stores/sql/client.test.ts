/** What the SQL clients and stores tell /readyz and telemetry: the database they name, their ping, their count; fakes of the drivers, in process. */
import { describe, expect, it } from 'vitest';
import { pgliteClient, postgresClient, type Row, type SqlClient } from './client.ts';
import { d1PetStorage } from './d1-pet-storage.ts';
import type { D1DatabaseLike, D1PreparedStatementLike } from './d1-client.ts';
import { sqlLimitStore } from './limit-store.ts';
import { sqlPetStorage } from './pet-storage.ts';

/** A `postgres` (porsager) pool that answers each statement with `rows`, or fails them all with `error`; it notes what it was sent. */
function fakePostgres(rows: Row[] = [], error?: Error) {
  const sent: string[] = [];
  const sql = {
    unsafe(query: string) {
      sent.push(query);
      const result = error ? Promise.reject(error) : Promise.resolve(rows);
      return Object.assign(result, { cancel: () => {} });
    },
  };
  return { sql, sent };
}

/** A SqlClient that answers every statement with `rows` and notes what it was sent. */
function fakeClient(rows: Row[], extra: Partial<SqlClient> = {}) {
  const sent: string[] = [];
  const client: SqlClient = {
    async query(text) {
      sent.push(text);
      return rows;
    },
    ...extra,
  };
  return { client, sent };
}

describe('postgresClient', () => {
  it('names its database PostgreSQL (db.system.name postgresql)', () => {
    expect(postgresClient(fakePostgres().sql).database).toEqual({ system: 'postgresql', name: 'PostgreSQL' });
  });

  it('pings with SELECT 1 through the pool, and resolves when the server answers', async () => {
    const { sql, sent } = fakePostgres([{ '?column?': 1 }]);
    await expect(postgresClient(sql).ping!()).resolves.toBeUndefined();
    expect(sent).toEqual(['SELECT 1']);
  });

  it('rejects its ping when the pool cannot reach the server', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await expect(postgresClient(fakePostgres([], refused).sql).ping!()).rejects.toBe(refused);
  });
});

describe('pgliteClient', () => {
  it('names its database PGlite (db.system.name postgresql) and has no ping: nothing of it can be down', () => {
    const client = pgliteClient({ query: async () => ({ rows: [] }) });
    expect(client.database).toEqual({ system: 'postgresql', name: 'PGlite' });
    expect(client.ping).toBeUndefined();
  });
});

describe('the SQL stores on a client', () => {
  it("name their client's database and ping through the client's ping", async () => {
    let pings = 0;
    const { client } = fakeClient([], { database: { system: 'postgresql', name: 'PostgreSQL' }, ping: async () => void pings++ });
    const stores = [sqlPetStorage(client), sqlLimitStore(client)];
    for (const store of stores) {
      expect(store.database).toEqual({ system: 'postgresql', name: 'PostgreSQL' });
      await store.ping!();
    }
    expect(pings).toBe(2);
  });

  it('have neither database nor ping on a client without them, so /readyz does not ask them', () => {
    const { client } = fakeClient([]);
    for (const store of [sqlPetStorage(client), sqlLimitStore(client)]) {
      expect('database' in store || 'ping' in store).toBe(false);
    }
    const pglite = pgliteClient({ query: async () => ({ rows: [] }) });
    expect(sqlPetStorage(pglite).ping).toBeUndefined();
    expect(sqlLimitStore(pglite).database).toEqual({ system: 'postgresql', name: 'PGlite' });
  });

  it('count the pets by reading the one row of the id counter, not by scanning the pets', async () => {
    const { client, sent } = fakeClient([{ last_id: '1234567' }]);
    expect(await sqlPetStorage(client).count!()).toBe(1_234_567);
    expect(sent).toEqual(['SELECT last_id FROM petstore_pet_ids']);
  });
});

describe('d1PetStorage', () => {
  it('names its database D1, as sqlite (OpenTelemetry has no name of its own for D1), and pings with a SELECT 1', async () => {
    const prepared: string[] = [];
    const statement = { first: async () => ({ 1: 1 }) } as unknown as D1PreparedStatementLike;
    const db = {
      prepare(query: string) {
        prepared.push(query);
        return statement;
      },
    } as unknown as D1DatabaseLike;
    const storage = d1PetStorage(db);
    expect(storage.database).toEqual({ system: 'sqlite', name: 'D1' });
    await expect(storage.ping!()).resolves.toBeUndefined();
    expect(prepared).toEqual(['SELECT 1']);
    expect(storage.count).toBeUndefined();
  });
});
