/**
 * The SQL stores on PGlite, in process: the conformance suites, each test in a fresh schema of one
 * PGlite (starting a PGlite takes about 1.5 s; a schema, milliseconds).
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';
import { migrate, pgliteClient, sqlLimitStore, sqlPetStorage, type SqlClient } from '../../stores/sql/index.ts';
import { describeLimitStoreConformance, describePetStorageConformance } from '../../testing/conformance/index.ts';

let db: PGlite;
// Starting PGlite compiles its WebAssembly: 1.5 s alone, over 10 s (vitest's default hook
// timeout) on a CI machine busy with other suites.
beforeAll(async () => {
  db = await PGlite.create();
}, 60_000);
afterAll(() => db?.close());

let schemas = 0;
let current = '';

/**
 * A migrated, empty schema, made the session's search_path: the stores' unqualified names (their
 * functions' included) resolve to it. One session serves every test, so this holds only while
 * tests run one at a time, as they do within a file; the client refuses a query once another test's
 * schema has taken over, rather than touch the wrong tables.
 */
async function freshClient(): Promise<SqlClient> {
  const schema = `test_${++schemas}`;
  await db.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
  current = schema;
  const client = pgliteClient(db);
  const guarded: SqlClient = {
    query(text, params) {
      if (current !== schema) throw new Error(`a query of ${schema} while ${current} is the search_path`);
      return client.query(text, params);
    },
  };
  await migrate(guarded);
  return guarded;
}

describePetStorageConformance('sqlPetStorage on PGlite', async () => sqlPetStorage(await freshClient()));
describeLimitStoreConformance('sqlLimitStore on PGlite', async () => sqlLimitStore(await freshClient()));
