/**
 * The SQL stores on PGlite, in process: the conformance suites, each test in a fresh schema of one
 * PGlite (starting a PGlite takes about 1.5 s; a schema, milliseconds).
 */
import { migrate, pgliteClient, sqlLimitStore, sqlPetStorage, type SqlClient } from '../../stores/sql/index.ts';
import { describeLimitStoreConformance, describePetStorageConformance } from '../../testing/conformance/index.ts';
import { pgliteSession } from './pglite-session.ts';

const session = pgliteSession('test');
let current = '';

/**
 * A migrated, empty schema, made the session's search_path: the stores' unqualified names (their
 * functions' included) resolve to it. One session serves every test, so this holds only while
 * tests run one at a time, as they do within a file; the client refuses a query once another test's
 * schema has taken over, rather than touch the wrong tables.
 */
async function freshClient(): Promise<SqlClient> {
  const schema = await session.newSchema();
  current = schema;
  const client = pgliteClient(session.db());
  const guarded: SqlClient = {
    database: client.database,
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
