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
    // createOnce as one statement: the key's lookup and the create happen under the id row's lock.
    // Each statement in the function sees what committed before it began, so the lookup after the
    // lock sees a key that a create holding the lock before us stored.
    `CREATE FUNCTION petstore_create_once(p_key text, p_fingerprint text, p_name_json text, p_category_id bigint, p_status text, p_expires_at bigint, p_now bigint)
     RETURNS TABLE (out_created boolean, out_fingerprint text, out_expires_at bigint, out_id bigint, out_name_json text, out_category_id bigint, out_status text)
     LANGUAGE plpgsql AS $$
     DECLARE
       v_id bigint;
     BEGIN
       -- The id row's lock first: two creates with one key take turns, so only one stores a pet.
       PERFORM 1 FROM petstore_pet_ids FOR UPDATE;
       RETURN QUERY SELECT false, i.fingerprint, i.expires_at, p.id, p.name_json, p.category_id, p.status
         FROM petstore_idempotency i JOIN petstore_pets p ON p.id = i.pet_id WHERE i.key = p_key AND i.expires_at > p_now;
       IF FOUND THEN
         RETURN;
       END IF;
       UPDATE petstore_pet_ids SET last_id = last_id + 1 RETURNING last_id INTO v_id;
       INSERT INTO petstore_pets (id, name_json, category_id, status) VALUES (v_id, p_name_json, p_category_id, p_status);
       INSERT INTO petstore_idempotency AS i (key, fingerprint, pet_id, expires_at) VALUES (p_key, p_fingerprint, v_id, p_expires_at)
         ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, pet_id = excluded.pet_id, expires_at = excluded.expires_at;
       -- Expired keys go a few at a time, so the table holds about a day of keys without a sweeper.
       DELETE FROM petstore_idempotency WHERE key IN (SELECT e.key FROM petstore_idempotency e WHERE e.expires_at <= p_now LIMIT 16);
       RETURN QUERY SELECT true, p_fingerprint, p_expires_at, v_id, p_name_json, p_category_id, p_status;
     END
     $$`,
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
  [
    // When a subject's state ends: the latest end of its windows (counters and refusals), and of
    // its ban. Version 1's cleanup found ended subjects by scanning every subject with an anti-join
    // on its counters, and every caller seen today holds a live day counter: it read every subject
    // per take (BENCHMARKS.md, Findings: figures moved from the code). Indexed, it is an index range
    // scan reading the same few rows per take at 100 callers and at 20,000
    // (test/sql/pglite-limit-cleanup.test.ts counts them in pg_stat_user_tables and _indexes).
    'ALTER TABLE petstore_limit_subjects ADD COLUMN windows_end bigint NOT NULL DEFAULT 0',
    `UPDATE petstore_limit_subjects s SET windows_end = c.window_end
     FROM (SELECT subject, max(window_end) AS window_end FROM petstore_limit_counters GROUP BY subject) c WHERE c.subject = s.subject`,
    // Generated, so that a ban an instance of version 1 still running writes moves it too.
    'ALTER TABLE petstore_limit_subjects ADD COLUMN ends_at bigint GENERATED ALWAYS AS (GREATEST(banned_until, windows_end)) STORED',
    'CREATE INDEX petstore_limit_subjects_ends_at ON petstore_limit_subjects (ends_at)',
    // Version 1's take, keeping windows_end, with the cleanup by ends_at. Same signature, so an
    // instance of version 1 sharing the database calls this one too. Every statement in it finds
    // its rows by key, but a session keeps the plans it made on its first calls, and with 100
    // subjects known to the planner (after an ANALYZE, or migration 2's CREATE INDEX) those are
    // sequential scans: 362 to 840 rows per take at 100 callers in that test, growing with them,
    // and PGlite never runs the autovacuum whose ANALYZE would have them planned again.
    // enable_seqscan = off keeps the plans on the indexes at any size.
    `CREATE OR REPLACE FUNCTION petstore_limit_take(p_subject text, p_names text[], p_starts bigint[], p_ends bigint[], p_limits integer[], p_now bigint)
     RETURNS TABLE (out_admitted boolean, out_used integer[], out_banned_until bigint) LANGUAGE plpgsql SET enable_seqscan = off AS $$
     DECLARE
       v_banned bigint;
       v_windows_end bigint;
       v_end bigint := 0;
       v_count integer;
       v_used integer[] := '{}';
     BEGIN
       FOR i IN 1 .. array_length(p_ends, 1) LOOP
         v_end := GREATEST(v_end, p_ends[i]);
       END LOOP;
       INSERT INTO petstore_limit_subjects (subject, windows_end) VALUES (p_subject, v_end) ON CONFLICT (subject) DO NOTHING;
       SELECT s.banned_until, s.windows_end INTO v_banned, v_windows_end FROM petstore_limit_subjects s WHERE s.subject = p_subject FOR UPDATE;
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
       -- Once a day per subject: the day window's end is the latest.
       IF v_windows_end < v_end THEN
         UPDATE petstore_limit_subjects SET windows_end = v_end WHERE subject = p_subject;
       END IF;
       -- Ended state goes a couple of subjects per call, skipping any another call holds. ORDER BY
       -- keeps it on the index whatever the table's size when the plan was made: without it, a
       -- LIMIT 2 plan may be a sequential scan expecting a match within a few rows.
       DELETE FROM petstore_limit_subjects WHERE subject IN (
         SELECT s.subject FROM petstore_limit_subjects s WHERE s.ends_at <= p_now AND s.subject <> p_subject
         ORDER BY s.ends_at LIMIT 2 FOR UPDATE SKIP LOCKED);
       RETURN QUERY SELECT true, v_used, NULL::bigint;
     END
     $$`,
  ],
];

/** Any constant both instances agree on: the key of the advisory lock that lets one instance migrate at a time. */
const MIGRATION_LOCK = 7_040_516_016;

/** How each statement is quoted inside the migration's DO block; no statement may contain it. */
const QUOTE = '$petstore_statement$';

/**
 * Brings the database's schema up to date: creates the stores' tables on first use and applies
 * what a newer version adds. Safe when several instances start at once (they take turns under an
 * advisory lock) and when run again (applied versions are recorded). Needs only the rights of a
 * role that owns its database, no superuser.
 *
 * It is one statement, a DO block, so it commits whole or not at all without the driver running a
 * transaction: `postgres` (3.4.9) can crash the process when the server goes away in the middle of
 * one (its ROLLBACK is written to a closed socket). Through `postgresClient` it is bound by the
 * client's `timeoutMs`, waiting for another instance's migration included: give a migration that
 * may take longer a client of its own, `postgresClient(sql, { timeoutMs: 0 })`.
 *
 * @example
 * await migrate(postgresClient(sql));
 */
export async function migrate(client: SqlClient): Promise<void> {
  await migrateTo(client, MIGRATIONS.length);
}

/**
 * {@link migrate}, stopping after migration `version`: how a test makes the database an older
 * release left, to prove it upgrades. Not exported from the package.
 *
 * @example
 * await migrateTo(client, 1); // the schema as version 1 left it
 */
export async function migrateTo(client: SqlClient, version: number): Promise<void> {
  if (!Number.isSafeInteger(version) || version < 1 || version > MIGRATIONS.length) throw new RangeError(`no migration ${version}`);
  const steps = MIGRATIONS.slice(0, version).map((statements, index) => {
    const number = index + 1;
    const executes = statements.map((statement) => {
      if (statement.includes(QUOTE)) throw new Error(`migration ${number} holds ${QUOTE}`);
      return `EXECUTE ${QUOTE}${statement}${QUOTE};`;
    });
    return `IF NOT EXISTS (SELECT 1 FROM petstore_migrations WHERE version = ${number}) THEN
      ${executes.join('\n')}
      INSERT INTO petstore_migrations (version) VALUES (${number});
    END IF;`;
  });
  // Quiet: `postgres` prints notices by default, and IF NOT EXISTS notes "already exists, skipping".
  await client.query(`DO $petstore_migrate$ BEGIN
    SET LOCAL client_min_messages = warning;
    PERFORM pg_advisory_xact_lock(${MIGRATION_LOCK});
    CREATE TABLE IF NOT EXISTS petstore_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
    ${steps.join('\n')}
  END $petstore_migrate$`);
}
