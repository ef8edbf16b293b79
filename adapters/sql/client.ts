/** The one thing the SQL stores need of a database driver, and that shape over `postgres` (porsager) and PGlite. */

/** A row as a driver returns it: column name to value. */
export type Row = Record<string, unknown>;

/**
 * What the SQL stores run their statements through: positional `$1` parameters and a transaction.
 * `postgresClient` and `pgliteClient` make one from those drivers; another driver needs only these two.
 *
 * @example
 * const client: SqlClient = postgresClient(postgres(process.env.DATABASE_URL!));
 */
export interface SqlClient {
  /** Runs one statement and resolves to its rows. */
  query(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it rejects. */
  transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T>;
}

/** The part of a `postgres` (porsager) `Sql` the stores use. */
interface PostgresSqlLike {
  unsafe(query: string, parameters?: never[]): PromiseLike<readonly Row[]>;
  begin(work: (sql: never) => Promise<unknown>): PromiseLike<unknown>;
}

/**
 * A {@link SqlClient} over a `postgres` (porsager) connection pool.
 *
 * @example
 * import postgres from 'postgres';
 * const client = postgresClient(postgres('postgres://petstore@127.0.0.1/petstore'));
 */
export function postgresClient(sql: PostgresSqlLike): SqlClient {
  return {
    query: async (text, params = []) => [...(await sql.unsafe(text, params as never[]))],
    transaction: async <T>(work: (client: SqlClient) => Promise<T>) =>
      (await sql.begin((tx: never) => work(postgresClient(tx as PostgresSqlLike)))) as T,
  };
}

/** The part of a PGlite database (or transaction) the stores use. */
interface PGliteLike {
  query(query: string, params?: never[]): Promise<{ readonly rows: readonly unknown[] }>;
  transaction?(work: (tx: never) => Promise<unknown>): Promise<unknown>;
}

/**
 * A {@link SqlClient} over PGlite, PostgreSQL in WebAssembly: in memory, in a data directory, or in IndexedDB.
 *
 * @example
 * import { PGlite } from '@electric-sql/pglite';
 * const client = pgliteClient(await PGlite.create('./data'));
 */
export function pgliteClient(db: PGliteLike): SqlClient {
  return {
    query: async (text, params = []) => (await db.query(text, params as never[])).rows as Row[],
    transaction: async <T>(work: (client: SqlClient) => Promise<T>) => {
      if (!db.transaction) throw new TypeError('pgliteClient: nested transactions are not supported');
      return (await db.transaction((tx: never) => work(pgliteClient(tx as PGliteLike)))) as T;
    },
  };
}
