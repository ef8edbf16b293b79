/** What a store can say of the database it keeps its data in: named in readiness answers and in telemetry. */

/**
 * The database server a storage or limit store keeps its data in, when it has one: `/readyz`
 * names it when it does not answer, and telemetry names its calls after it.
 *
 * @example
 * const database: StoreDatabase = { system: 'postgresql', name: 'PostgreSQL' };
 */
export interface StoreDatabase {
  /** OpenTelemetry's `db.system.name`: `postgresql`, `redis`, `sqlite`. */
  readonly system: string;
  /** The name people know it by: `PostgreSQL`, `PGlite`, `Redis`, `D1`. */
  readonly name: string;
}
