/** The one thing the SQL stores need of a database driver, and that shape over `postgres` (porsager) and PGlite. */
import type { StoreDatabase } from '../../src/index.ts';

/** A row as a driver returns it: column name to value. */
export type Row = Record<string, unknown>;

/**
 * What the SQL stores run their statements through: one statement at a time, positional `$1`
 * parameters. Every store operation is a single statement (a multi-step write is a function the
 * migration creates), so a client needs no transactions: each statement commits on its own.
 * `postgresClient` and `pgliteClient` make one from those drivers; another driver needs only this.
 *
 * @example
 * const client: SqlClient = postgresClient(postgres(process.env.DATABASE_URL!));
 */
export interface SqlClient {
  /** Runs one statement and resolves to its rows. */
  query(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** The database it reaches, which the stores made on it name (`/readyz`, telemetry). */
  readonly database?: StoreDatabase;
  /**
   * Resolves when the database answers, rejects when it does not: the stores' `ping`, which
   * `GET /readyz` asks. Only for a database that can be down (a server); omit it for one in the process.
   */
  ping?(): Promise<void>;
}

/** What {@link postgresClient} names its database. */
const POSTGRESQL: StoreDatabase = Object.freeze({ system: 'postgresql', name: 'PostgreSQL' });
/**
 * What {@link pgliteClient} and the `--data` stores name their database: PostgreSQL's engine, in the process.
 *
 * @example
 * const storage: PetStorage = { database: PGLITE, ...rest };
 */
export const PGLITE: StoreDatabase = Object.freeze({ system: 'postgresql', name: 'PGlite' });

/** What `postgres` (porsager) returns for a statement: a promise-like that can be cancelled. */
interface PostgresPendingLike extends PromiseLike<readonly Row[]> {
  cancel(): unknown;
}

/** The part of a `postgres` (porsager) `Sql` the stores use. */
interface PostgresSqlLike {
  unsafe(query: string, parameters?: never[]): PostgresPendingLike;
}

/**
 * Settings of {@link postgresClient}.
 *
 * @example
 * const options: PostgresClientOptions = { timeoutMs: 2_000 };
 */
export interface PostgresClientOptions {
  /**
   * Longest wait for one statement, queueing for a connection included; then it is cancelled and
   * the request fails with a 500 instead of hanging. Default 5 s; `0` waits for ever. While the
   * database is down or just back, `postgres` can hold a statement through its reconnect backoff
   * (up to 20 s by default) and `connect_timeout` (30 s by default).
   */
  readonly timeoutMs?: number;
}

/**
 * A {@link SqlClient} over a `postgres` (porsager) connection pool. For outages, give the pool a
 * short `connect_timeout` (seconds; default 30) and a short `backoff`: by default a connection
 * that failed waits up to 20 s before it connects again, so the service stays down that long after
 * the database is back. Statements still waiting after `timeoutMs` fail (a 500) rather than hang.
 *
 * @example
 * import postgres from 'postgres';
 * const sql = postgres('postgres://petstore@127.0.0.1/petstore', { connect_timeout: 5, backoff: () => 0.5 });
 * const client = postgresClient(sql);
 */
export function postgresClient(sql: PostgresSqlLike, { timeoutMs = 5_000 }: PostgresClientOptions = {}): SqlClient {
  // setTimeout fires at once for more than 2^31 - 1 ms.
  if (!(timeoutMs >= 0 && timeoutMs <= 2 ** 31 - 1)) throw new TypeError('postgresClient: timeoutMs must be 0 (no limit) to 2147483647 milliseconds');
  const client: SqlClient = {
    database: POSTGRESQL,
    // A statement like any other, so a pool that cannot reach the server rejects it as it would a request's.
    async ping() {
      await client.query('SELECT 1');
    },
    query(text, params = []) {
      const pending = sql.unsafe(text, params as never[]);
      const rows = Promise.resolve(pending).then((result) => [...result]);
      if (timeoutMs === 0) return rows;
      return new Promise<Row[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`postgresClient: no answer from PostgreSQL within ${timeoutMs} ms`));
          // Dropped from the queue if not sent yet, cancelled on the server if running; best effort.
          Promise.resolve()
            .then(() => pending.cancel())
            .catch(() => {});
        }, timeoutMs);
        rows.then(resolve, reject).finally(() => clearTimeout(timer));
      });
    },
  };
  return client;
}

/** The part of a PGlite database the stores use. */
interface PGliteLike {
  query(query: string, params?: never[]): Promise<{ readonly rows: readonly unknown[] }>;
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
    database: PGLITE,
    query: async (text, params = []) => (await db.query(text, params as never[])).rows as Row[],
  };
}

/**
 * `store` with the client's `database` and `ping` (as the client's own, bound), each only when the
 * client has it: a store on PGlite has nothing that can be down, so `/readyz` does not ask it.
 *
 * @example
 * return withDatabaseOf(client, { take, reject, ban });
 */
export function withDatabaseOf<Store extends object>(client: SqlClient, store: Store): Store & Pick<SqlClient, 'database' | 'ping'> {
  const added: { database?: SqlClient['database']; ping?: () => Promise<void> } = {};
  if (client.database) added.database = client.database;
  if (client.ping) added.ping = () => client.ping!();
  return Object.assign(store, added);
}
