/** The schema of the SQL stores, as numbered migrations applied once, in order, by whichever instance starts first. */
import type { SqlClient } from './client.ts';

/**
 * Each migration, applied in order and never edited once released: a change is a new entry.
 * Tables are prefixed `petstore_` so the stores can share a database with an application's own.
 */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    // One row holding the last id handed out. Every create takes its row lock and keeps it until it
    // commits, so ids become visible in the order they were handed out (see pet-storage.ts).
    'CREATE TABLE petstore_pet_ids (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), last_id bigint NOT NULL)',
    'INSERT INTO petstore_pet_ids (last_id) VALUES (0)',
    // name_json is the name as a JSON string: PostgreSQL text cannot hold U+0000, which a name may.
    `CREATE TABLE petstore_pets (
       id bigint PRIMARY KEY,
       name_json text NOT NULL,
       category_id bigint NOT NULL,
       status text CHECK (status IN ('available', 'pending', 'sold'))
     )`,
    // A filtered page is an index range scan: O(log n + limit) at any number of pets.
    'CREATE INDEX petstore_pets_status_id ON petstore_pets (status, id)',
    `CREATE TABLE petstore_idempotency (
       key text PRIMARY KEY,
       fingerprint text NOT NULL,
       pet_id bigint NOT NULL REFERENCES petstore_pets (id),
       expires_at bigint NOT NULL
     )`,
    'CREATE INDEX petstore_idempotency_expires_at ON petstore_idempotency (expires_at)',
    // Rate limits: a row per subject, whose lock serializes the subject's calls, with its ban and
    // refusals; a row per subject and window with its count.
    `CREATE TABLE petstore_limit_subjects (
       subject text PRIMARY KEY,
       banned_until bigint NOT NULL DEFAULT 0,
       refused_in bigint NOT NULL DEFAULT 0,
       refused integer NOT NULL DEFAULT 0
     )`,
    `CREATE TABLE petstore_limit_counters (
       subject text NOT NULL REFERENCES petstore_limit_subjects (subject) ON DELETE CASCADE,
       window_name text NOT NULL,
       window_start bigint NOT NULL,
       window_end bigint NOT NULL,
       used integer NOT NULL,
       PRIMARY KEY (subject, window_name)
     )`,
    // take() as one round trip: the check and the counting happen under the subject row's lock.
    `CREATE FUNCTION petstore_limit_take(p_subject text, p_names text[], p_starts bigint[], p_ends bigint[], p_limits integer[], p_now bigint)
     RETURNS TABLE (out_admitted boolean, out_used integer[], out_banned_until bigint) LANGUAGE plpgsql AS $$
     DECLARE
       v_banned bigint;
       v_count integer;
       v_used integer[] := '{}';
     BEGIN
       INSERT INTO petstore_limit_subjects (subject) VALUES (p_subject) ON CONFLICT (subject) DO NOTHING;
       SELECT s.banned_until INTO v_banned FROM petstore_limit_subjects s WHERE s.subject = p_subject FOR UPDATE;
       FOR i IN 1 .. array_length(p_names, 1) LOOP
         SELECT c.used INTO v_count FROM petstore_limit_counters c
           WHERE c.subject = p_subject AND c.window_name = p_names[i] AND c.window_start = p_starts[i];
         v_used := v_used || COALESCE(v_count, 0);
       END LOOP;
       IF v_banned > p_now THEN
         RETURN QUERY SELECT false, v_used, v_banned;
         RETURN;
       END IF;
       FOR i IN 1 .. array_length(p_names, 1) LOOP
         IF v_used[i] >= p_limits[i] THEN
           RETURN QUERY SELECT false, v_used, NULL::bigint;
           RETURN;
         END IF;
       END LOOP;
       FOR i IN 1 .. array_length(p_names, 1) LOOP
         INSERT INTO petstore_limit_counters AS c (subject, window_name, window_start, window_end, used)
           VALUES (p_subject, p_names[i], p_starts[i], p_ends[i], 1)
           ON CONFLICT (subject, window_name) DO UPDATE
           SET used = CASE WHEN c.window_start = excluded.window_start THEN c.used + 1 ELSE 1 END,
               window_start = excluded.window_start, window_end = excluded.window_end;
         v_used[i] := v_used[i] + 1;
       END LOOP;
       -- Ended state goes a couple of subjects per call, skipping any another call holds.
       DELETE FROM petstore_limit_subjects WHERE subject IN (
         SELECT s.subject FROM petstore_limit_subjects s
         WHERE s.banned_until <= p_now AND s.subject <> p_subject
           AND NOT EXISTS (SELECT 1 FROM petstore_limit_counters c WHERE c.subject = s.subject AND c.window_end > p_now)
         LIMIT 2 FOR UPDATE SKIP LOCKED);
       RETURN QUERY SELECT true, v_used, NULL::bigint;
     END
     $$`,
  ],
];

/** Any constant both instances agree on: the key of the advisory lock that lets one instance migrate at a time. */
const MIGRATION_LOCK = 7_040_516_016;

/**
 * Brings the database's schema up to date: creates the stores' tables on first use and applies
 * what a newer version adds. Safe when several instances start at once (they take turns under an
 * advisory lock) and when run again (applied versions are recorded). Needs only the rights of a
 * role that owns its database, no superuser.
 *
 * @example
 * await migrate(postgresClient(sql));
 */
export async function migrate(client: SqlClient): Promise<void> {
  await client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query('CREATE TABLE IF NOT EXISTS petstore_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const applied = new Set((await tx.query('SELECT version FROM petstore_migrations')).map((row) => Number(row.version)));
    for (const [index, statements] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (applied.has(version)) continue;
      for (const statement of statements) await tx.query(statement);
      await tx.query('INSERT INTO petstore_migrations (version) VALUES ($1)', [version]);
    }
  });
}
