/** PetStorage on PostgreSQL (or PGlite): one table of pets, ids handed out under one row lock so they commit in order. */
import type { CreateOnceResult, IdempotencyRecord, NewPet, Pet, PetListQuery, PetStatus, PetStorage } from '../../src/index.ts';
import { type Row, type SqlClient, withDatabaseOf } from './client.ts';

const COLUMNS = 'id, name_json, category_id, status';

/** A row of petstore_pets as a Pet; bigint columns arrive as strings from some drivers. */
export function petOf(row: Row): Pet {
  const pet: Pet = { id: Number(row.id), name: JSON.parse(String(row.name_json)) as string, categoryId: Number(row.category_id) };
  return row.status === null || row.status === undefined ? pet : { ...pet, status: row.status as PetStatus };
}

/**
 * Stores `newPet` under the next id, in one statement. The UPDATE takes the id row's lock and
 * holds it until the statement commits, so the create that got id n has committed before any
 * other can get n + 1: ids become visible in order, and a reader paging by id never has a pet
 * appear behind its cursor. The cost is that creates commit one at a time.
 * `petstore_create_once` takes the same lock.
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
 * first. Every write is one statement, so a create is whole or absent, and an idempotent create
 * is replayed across instances and restarts until its key expires. It names the client's
 * `database` and pings through the client's `ping`, when the client has them.
 *
 * `count` reads the id counter's one row: every create takes the next id and stores its pet in
 * one statement, which commits both or neither, and nothing deletes a pet, so the last id is the
 * number of pets, at the cost of a primary-key lookup rather than a table scan.
 *
 * @example
 * const client = postgresClient(postgres(process.env.DATABASE_URL!));
 * await migrate(client);
 * const petstore = createPetStore({ storage: sqlPetStorage(client) });
 */
export function sqlPetStorage(client: SqlClient): PetStorage {
  const storage: PetStorage = {
    async count() {
      const [row] = await client.query('SELECT last_id FROM petstore_pet_ids');
      return Number(row?.last_id ?? 0);
    },
    create: (newPet) => insert(client, newPet),
    async createOnce(key, fingerprint, { name, categoryId, status }, expiresAt, now): Promise<CreateOnceResult> {
      // One statement (a function the migration creates): the key's lookup and the create share the id row's lock.
      const [row] = await client.query(
        `SELECT out_created AS created, out_fingerprint AS fingerprint, out_expires_at AS expires_at,
                out_id AS id, out_name_json AS name_json, out_category_id AS category_id, out_status AS status
         FROM petstore_create_once($1, $2, $3, $4, $5, $6, $7)`,
        [key, fingerprint, JSON.stringify(name), categoryId, status ?? null, expiresAt, now],
      );
      const record: IdempotencyRecord = { fingerprint: String(row!.fingerprint), pet: petOf(row!), expiresAt: Number(row!.expires_at) };
      return { record, created: row!.created === true };
    },
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
  return withDatabaseOf(client, storage);
}
