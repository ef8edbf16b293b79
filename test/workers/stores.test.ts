/** The Workers stores on local workerd: the storage and limit-store conformance suites against a real D1 database and real Durable Objects. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeLimitStoreConformance, describePetStorageConformance } from '../../testing/conformance/index.ts';
import { type LocalWorkerd, startLocalWorkerd } from './workerd.ts';

let workerd: LocalWorkerd;
beforeAll(async () => {
  workerd = await startLocalWorkerd();
}, 60_000);
afterAll(() => workerd?.dispose());

/** An empty, migrated database: tests in a file run one at a time, so each drops what the last made. */
async function freshDatabase(): Promise<LocalWorkerd> {
  // Dropping an AUTOINCREMENT table drops its sqlite_sequence row too, so ids start again at 1.
  for (const table of ['petstore_idempotency', 'petstore_pets', 'petstore_migrations']) await workerd.query(`DROP TABLE IF EXISTS ${table}`);
  await workerd.migrate();
  return workerd;
}

let prefixes = 0;

describePetStorageConformance('d1PetStorage on local D1', async () => (await freshDatabase()).storage);
describeLimitStoreConformance('durableObjectLimitStore on local Durable Objects', () => workerd.limitStore(`test-${++prefixes}:`));

describe('migrateD1', () => {
  it('makes the tables once: run again, and three at once, it changes nothing and fails nothing', async () => {
    const { storage, migrate, query } = await freshDatabase();
    await storage.create({ name: 'Kept', categoryId: 1 });
    await Promise.all([migrate(), migrate(), migrate()]);
    expect(await query('SELECT version FROM petstore_migrations')).toEqual([{ version: 1 }]);
    expect(await storage.list({ after: 0, limit: 10 })).toEqual([{ id: 1, name: 'Kept', categoryId: 1 }]);
  });

  it('makes the tables on a database it has never seen, three Workers at once', async () => {
    for (const table of ['petstore_idempotency', 'petstore_pets', 'petstore_migrations']) await workerd.query(`DROP TABLE IF EXISTS ${table}`);
    await Promise.all([workerd.migrate(), workerd.migrate(), workerd.migrate()]);
    expect(await workerd.query('SELECT version FROM petstore_migrations')).toEqual([{ version: 1 }]);
    expect(await workerd.storage.create({ name: 'First', categoryId: 2 })).toEqual({ id: 1, name: 'First', categoryId: 2 });
  });
});
