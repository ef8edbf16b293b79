/** PetStorage on PostgreSQL (or PGlite): one table of pets, ids handed out under one row lock so they commit in order. */
import type { NewPet, Pet, PetStatus } from '../../src/storage/pet.ts';
import type { CreateOnceResult, IdempotencyRecord, PetListQuery, PetStorage } from '../../src/storage/pet-storage.ts';
import type { Row, SqlClient } from './client.ts';

const COLUMNS = 'id, name_json, category_id, status';

/** A row of petstore_pets as a Pet; bigint columns arrive as strings from some drivers. */
function petOf(row: Row): Pet {
  const pet: Pet = { id: Number(row.id), name: JSON.parse(String(row.name_json)) as string, categoryId: Number(row.category_id) };
  return row.status === null || row.status === undefined ? pet : { ...pet, status: row.status as PetStatus };
}

/**
 * Stores `newPet` under the next id, inside the caller's transaction. The UPDATE takes the id
 * row's lock and holds it until the transaction commits, so the create that got id n has
 * committed before any other can get n + 1: ids become visible in order, and a reader paging by
 * id never has a pet appear behind its cursor. The cost is that creates commit one at a time.
 */
async function insert(client: SqlClient, { name, categoryId, status }: NewPet): Promise<Pet> {
  const [row] = await client.query(
    `WITH next AS (UPDATE petstore_pet_ids SET last_id = last_id + 1 RETURNING last_id)
     INSERT INTO petstore_pets (${COLUMNS}) SELECT last_id, $1, $2, $3 FROM next RETURNING ${COLUMNS}`,
    [JSON.stringify(name), categoryId, status ?? null],
  );
  return petOf(row!);
}

/**
 * A {@link PetStorage} in PostgreSQL or PGlite, through a {@link SqlClient}. Run {@link migrate}
 * first. Every write is one transaction, so a create is whole or absent, and an idempotent create
 * is replayed across instances and restarts until its key expires.
 *
 * @example
 * const client = postgresClient(postgres(process.env.DATABASE_URL!));
 * await migrate(client);
 * const petstore = createPetStore({ storage: sqlPetStorage(client) });
 */
export function sqlPetStorage(client: SqlClient): PetStorage {
  return {
    create: (newPet) => insert(client, newPet),
    createOnce: (key, fingerprint, newPet, expiresAt, now) =>
      client.transaction(async (tx): Promise<CreateOnceResult> => {
        // The id row's lock first: two creates with one key take turns, so only one stores a pet.
        await tx.query('SELECT last_id FROM petstore_pet_ids FOR UPDATE');
        const [found] = await tx.query(
          `SELECT i.fingerprint, i.expires_at, ${COLUMNS.split(', ').map((c) => `p.${c}`).join(', ')}
           FROM petstore_idempotency i JOIN petstore_pets p ON p.id = i.pet_id WHERE i.key = $1 AND i.expires_at > $2`,
          [key, now],
        );
        if (found) {
          const record: IdempotencyRecord = { fingerprint: String(found.fingerprint), pet: petOf(found), expiresAt: Number(found.expires_at) };
          return { record, created: false };
        }
        const pet = await insert(tx, newPet);
        await tx.query(
          `INSERT INTO petstore_idempotency (key, fingerprint, pet_id, expires_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, pet_id = excluded.pet_id, expires_at = excluded.expires_at`,
          [key, fingerprint, pet.id, expiresAt],
        );
        // Expired keys go a few at a time, so the table holds about a day of keys without a sweeper.
        await tx.query(
          'DELETE FROM petstore_idempotency WHERE key IN (SELECT key FROM petstore_idempotency WHERE expires_at <= $1 LIMIT 16)',
          [now],
        );
        return { record: { fingerprint, pet, expiresAt }, created: true };
      }),
    async get(id) {
      const [row] = await client.query(`SELECT ${COLUMNS} FROM petstore_pets WHERE id = $1`, [id]);
      return row ? petOf(row) : undefined;
    },
    async list({ status, after, limit }: PetListQuery) {
      const rows =
        status === undefined
          ? await client.query(`SELECT ${COLUMNS} FROM petstore_pets WHERE id > $1 ORDER BY id LIMIT $2`, [after, limit])
          : await client.query(`SELECT ${COLUMNS} FROM petstore_pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`, [status, after, limit]);
      return rows.map(petOf);
    },
  };
}
