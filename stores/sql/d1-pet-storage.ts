/** PetStorage on Cloudflare D1 (SQLite): the SQL store's pet tables, with D1's one-writer order giving ids in commit order. */
import type { CreateOnceResult, NewPet, PetStorage, StoreDatabase } from '../../src/index.ts';
import type { D1DatabaseLike } from './d1-client.ts';
import { petOf } from './pet-storage.ts';

const COLUMNS = 'id, name_json, category_id, status';

/** D1 is SQLite underneath; OpenTelemetry has no name of its own for D1 (semantic conventions 1.45). */
const D1: StoreDatabase = Object.freeze({ system: 'sqlite', name: 'D1' });

/**
 * A {@link PetStorage} in a D1 database. Run {@link migrateD1} first (the Workers adapter does).
 * D1 runs one statement or batch at a time for the whole database, so the pet that got id n has
 * committed before any other gets n + 1: a reader paging by id never has a pet appear behind its
 * cursor. An idempotent create is one batch, so it is whole or absent and replayed across
 * Workers and deploys until its key expires. `ping` runs `SELECT 1`, a statement that reads no row.
 *
 * @example
 * const petstore = createPetStore({ storage: d1PetStorage(env.PETSTORE_DB) });
 */
export function d1PetStorage(db: D1DatabaseLike): PetStorage {
  return {
    database: D1,
    async ping() {
      await db.prepare('SELECT 1').first();
    },
    async create({ name, categoryId, status }: NewPet) {
      const row = await db
        .prepare(`INSERT INTO petstore_pets (name_json, category_id, status) VALUES (?1, ?2, ?3) RETURNING ${COLUMNS}`)
        .bind(JSON.stringify(name), categoryId, status ?? null)
        .first();
      return petOf(row!);
    },
    async createOnce(key, fingerprint, { name, categoryId, status }, expiresAt, now): Promise<CreateOnceResult> {
      // One transaction. Both inserts are guarded by the same "no live record" test, and the
      // pet's insert does not change its answer, so they store together or not at all. The
      // newest pet is the one just stored: nothing else writes between two statements of a batch.
      const live = 'NOT EXISTS (SELECT 1 FROM petstore_idempotency WHERE key = ?1 AND expires_at > ?2)';
      const [stored, , found] = await db.batch([
        db
          .prepare(`INSERT INTO petstore_pets (name_json, category_id, status) SELECT ?3, ?4, ?5 WHERE ${live}`)
          .bind(key, now, JSON.stringify(name), categoryId, status ?? null),
        db
          .prepare(
            `INSERT INTO petstore_idempotency (key, fingerprint, pet_id, expires_at)
             SELECT ?1, ?3, (SELECT max(id) FROM petstore_pets), ?4 WHERE ${live}
             ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, pet_id = excluded.pet_id, expires_at = excluded.expires_at`,
          )
          .bind(key, now, fingerprint, expiresAt),
        db
          .prepare(
            `SELECT i.fingerprint, i.expires_at, p.id, p.name_json, p.category_id, p.status
             FROM petstore_idempotency i JOIN petstore_pets p ON p.id = i.pet_id WHERE i.key = ?1`,
          )
          .bind(key),
        // Expired keys go a few at a time, so the table holds about a day of keys without a sweeper.
        db
          .prepare(
            'DELETE FROM petstore_idempotency WHERE key IN (SELECT key FROM petstore_idempotency WHERE expires_at <= ?1 AND key <> ?2 ORDER BY expires_at LIMIT 16)',
          )
          .bind(now, key),
      ]);
      const row = found!.results[0]!;
      return { record: { fingerprint: String(row.fingerprint), pet: petOf(row), expiresAt: Number(row.expires_at) }, created: stored!.meta.changes === 1 };
    },
    async get(id) {
      const row = await db.prepare(`SELECT ${COLUMNS} FROM petstore_pets WHERE id = ?1`).bind(id).first();
      return row ? petOf(row) : undefined;
    },
    async list({ status, after, limit }) {
      const statement =
        status === undefined
          ? db.prepare(`SELECT ${COLUMNS} FROM petstore_pets WHERE id > ?1 ORDER BY id LIMIT ?2`).bind(after, limit)
          : db.prepare(`SELECT ${COLUMNS} FROM petstore_pets WHERE status = ?3 AND id > ?1 ORDER BY id LIMIT ?2`).bind(after, limit, status);
      return (await statement.all()).results.map(petOf);
    },
  };
}
