/** The SQL stores' pet schema in SQLite, for Cloudflare D1: numbered migrations, applied once, in order, by whichever Worker asks first. */
import type { D1DatabaseLike } from './d1-client.ts';

/**
 * Each migration, never edited once released: a change is a new entry. The tables are the
 * PostgreSQL store's pet tables (names, columns, meaning) in SQLite's types; D1 runs one statement
 * or batch at a time for the whole database, so nothing here needs the row locks and functions
 * PostgreSQL's version takes to hand out ids in commit order.
 */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    // AUTOINCREMENT: an id is never reused, even after the newest pet's row were gone.
    // name_json is the name as a JSON string, as in PostgreSQL: U+0000 and lone surrogates survive.
    `CREATE TABLE petstore_pets (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       name_json TEXT NOT NULL,
       category_id INTEGER NOT NULL,
       status TEXT CHECK (status IN ('available', 'pending', 'sold'))
     )`,
    // A filtered page is an index range scan: O(log n + limit) at any number of pets.
    'CREATE INDEX petstore_pets_status_id ON petstore_pets (status, id)',
    `CREATE TABLE petstore_idempotency (
       key TEXT PRIMARY KEY,
       fingerprint TEXT NOT NULL,
       pet_id INTEGER NOT NULL REFERENCES petstore_pets (id),
       expires_at INTEGER NOT NULL
     )`,
    'CREATE INDEX petstore_idempotency_expires_at ON petstore_idempotency (expires_at)',
  ],
];

/**
 * Brings a D1 database's schema up to date: creates the pet tables on first use and applies what
 * a newer version adds. Each migration is one batch (one transaction) that also records its
 * number, so it is applied whole or not at all. Workers starting at once may race: the loser's
 * batch fails on a table that now exists and rolls back, and it goes on once it sees the version
 * recorded. The Workers adapter calls it before a Worker's first request.
 *
 * @example
 * await migrateD1(env.PETSTORE_DB);
 */
export async function migrateD1(db: D1DatabaseLike): Promise<void> {
  await db.prepare('CREATE TABLE IF NOT EXISTS petstore_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)').run();
  let applied = await appliedVersions(db);
  for (const [index, statements] of MIGRATIONS.entries()) {
    const version = index + 1;
    if (applied.has(version)) continue;
    try {
      await db.batch([
        ...statements.map((statement) => db.prepare(statement)),
        db.prepare('INSERT INTO petstore_migrations (version) VALUES (?1)').bind(version),
      ]);
    } catch (error) {
      applied = await appliedVersions(db);
      if (!applied.has(version)) throw new Error(`migrateD1: migration ${version} failed`, { cause: error });
    }
  }
}

async function appliedVersions(db: D1DatabaseLike): Promise<Set<number>> {
  const { results } = await db.prepare('SELECT version FROM petstore_migrations').all();
  return new Set(results.map((row) => Number(row.version)));
}
