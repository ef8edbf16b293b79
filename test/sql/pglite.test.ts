/** The SQL stores on PGlite, in process: the conformance suites, each test on a fresh database. */
import { PGlite } from '@electric-sql/pglite';
import { afterAll } from 'vitest';
import { migrate, pgliteClient, sqlLimitStore, sqlPetStorage } from '../../adapters/sql/index.ts';
import { describeLimitStoreConformance, describePetStorageConformance } from '../../src/conformance/index.ts';

const databases: PGlite[] = [];
afterAll(() => Promise.all(databases.map((db) => db.close())));

/** A migrated, empty in-memory PGlite. */
async function freshClient() {
  const db = await PGlite.create();
  databases.push(db);
  const client = pgliteClient(db);
  await migrate(client);
  return client;
}

describePetStorageConformance('sqlPetStorage on PGlite', async () => sqlPetStorage(await freshClient()));
describeLimitStoreConformance('sqlLimitStore on PGlite', async () => sqlLimitStore(await freshClient()));
