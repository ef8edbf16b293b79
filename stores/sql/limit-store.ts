/** LimitStore on PostgreSQL (or PGlite): exact shared quotas and bans for a team with a database and no Redis. */
import type { LimitStore, TakeResult } from '../../src/index.ts';
import { type SqlClient, withDatabaseOf } from './client.ts';

/**
 * A {@link LimitStore} in PostgreSQL or PGlite, through a {@link SqlClient}. Run {@link migrate}
 * first. `take` is one call of a function the migration creates, which counts under the subject's
 * row lock, so every instance sharing the database sees one exact count. Under heavy load Redis is
 * the better home for limits: each call here is a transaction with row locks (BENCHMARKS.md).
 * It names the client's `database` and pings through the client's `ping`, when the client has them.
 *
 * @example
 * const petstore = createPetStore({ storage: sqlPetStorage(client), limitStore: sqlLimitStore(client) });
 */
export function sqlLimitStore(client: SqlClient): LimitStore {
  return withDatabaseOf<LimitStore>(client, {
    async take(subject, windows, now): Promise<TakeResult> {
      const [row] = await client.query('SELECT out_admitted, out_used, out_banned_until FROM petstore_limit_take($1, $2, $3, $4, $5, $6)', [
        subject,
        windows.map((w) => w.name),
        windows.map((w) => w.start),
        windows.map((w) => w.end),
        windows.map((w) => w.limit),
        now,
      ]);
      const used = (row!.out_used as unknown[]).map(Number);
      const bannedUntil = row!.out_banned_until === null ? undefined : Number(row!.out_banned_until);
      return bannedUntil === undefined ? { admitted: row!.out_admitted === true, used } : { admitted: false, used, bannedUntil };
    },
    async reject(subject, window) {
      const [row] = await client.query(
        `INSERT INTO petstore_limit_subjects AS s (subject, refused_in, refused, windows_end) VALUES ($1, $2, 1, $3)
         ON CONFLICT (subject) DO UPDATE
         SET refused = CASE WHEN s.refused_in = excluded.refused_in THEN s.refused + 1 ELSE 1 END, refused_in = excluded.refused_in,
             windows_end = GREATEST(s.windows_end, excluded.windows_end)
         RETURNING refused`,
        [subject, window.start, window.end],
      );
      return Number(row!.refused);
    },
    async ban(subject, until) {
      await client.query(
        `INSERT INTO petstore_limit_subjects AS s (subject, banned_until) VALUES ($1, $2)
         ON CONFLICT (subject) DO UPDATE SET banned_until = GREATEST(s.banned_until, excluded.banned_until)`,
        [subject, until],
      );
    },
  });
}
