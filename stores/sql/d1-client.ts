/** The part of a Cloudflare D1 binding the D1 stores use, typed here so the package needs no Workers types. */
import type { Row } from './client.ts';

/** What D1 answers for a statement: its rows and how many rows it changed. */
export interface D1ResultLike {
  readonly results: Row[];
  readonly meta: { readonly changes: number };
}

/** A prepared D1 statement, as `db.prepare(sql)` returns it. */
export interface D1PreparedStatementLike {
  bind(...values: unknown[]): D1PreparedStatementLike;
  all(): Promise<D1ResultLike>;
  first(): Promise<Row | null>;
  run(): Promise<D1ResultLike>;
}

/**
 * A D1 database binding (`env.PETSTORE_DB` in a Worker), or Miniflare's `getD1Database()` in Node.
 *
 * @example
 * const db: D1DatabaseLike = env.PETSTORE_DB;
 */
export interface D1DatabaseLike {
  prepare(query: string): D1PreparedStatementLike;
  /** Runs the statements in order as one transaction: all of them or none. */
  batch(statements: D1PreparedStatementLike[]): Promise<D1ResultLike[]>;
}
