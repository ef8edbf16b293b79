/** One PGlite per test file and a fresh schema per test, made the session's search_path: what the PGlite suites share. */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';

/** The file's database, once started, and a maker of schemas on it. */
export interface PgliteSession {
  /** The database the file's hooks started. */
  db(): PGlite;
  /** Creates `<prefix>_<n>` and makes it the session's search_path; resolves to its name. One test at a time uses the session. */
  newSchema(): Promise<string>;
}

/**
 * Starts one PGlite before the file's tests and closes it after them. Starting PGlite compiles its
 * WebAssembly: 1.5 s alone, over 10 s (vitest's default hook timeout) on a CI machine busy with
 * other suites, hence the minute.
 *
 * @example
 * const session = pgliteSession('test');
 * const schema = await session.newSchema(); // 'test_1', now the search_path
 */
export function pgliteSession(prefix: string): PgliteSession {
  let db: PGlite | undefined;
  let schemas = 0;
  beforeAll(async () => {
    db = await PGlite.create();
  }, 60_000);
  afterAll(() => db?.close());
  const started = () => {
    if (!db) throw new Error('PGlite is used before the file started it');
    return db;
  };
  return {
    db: started,
    async newSchema() {
      const schema = `${prefix}_${++schemas}`;
      await started().exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
      return schema;
    },
  };
}
