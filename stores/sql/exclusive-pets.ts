/** PetStorage for a database one process alone writes (PGlite in a locked `--data` directory): every pet also in memory, read there, created through group commit. */
import {
  firstAfter,
  liveRecord,
  petIndex,
  type CreateOnceResult,
  type IdempotencyRecord,
  type NewPet,
  type Pet,
  type PetListQuery,
  type PetStatus,
  type PetStorage,
} from '../../src/index.ts';
import { PGLITE } from './client.ts';
import type { QueryClient } from './exclusive-limits.ts';
import { type GroupCommit, integer, literal, type WriteSource } from './group-commit.ts';

/** Rows read per statement when loading the pets on start. */
const LOAD_CHUNK = 100_000;
/** Expired idempotency keys deleted per flush that writes keys, as petstore_create_once does. */
const EXPIRED_PER_FLUSH = 16;

/** A create waiting for its flush; `pet` is set when the flush gives it its id. */
interface Create {
  readonly newPet: NewPet;
  readonly key?: { readonly key: string; readonly fingerprint: string; readonly expiresAt: number };
  pet?: Pet;
}

/**
 * The pet storage and the {@link WriteSource} that writes it through, over one {@link GroupCommit},
 * with every pet and live idempotency key of the database read into memory first, held as the
 * memory storage holds them (BENCHMARKS.md: 133 bytes of heap per pet). Reads never reach the database. A create is given its
 * id when its flush starts, in order, and is listed (and resolves) only once that flush has
 * committed, so a pet seen was stored and ids become visible in order; a create whose flush
 * fails takes no id and leaves nothing behind.
 *
 * @example
 * const { storage, source } = await exclusivePetStorage(db, () => group);
 */
export async function exclusivePetStorage(client: QueryClient, group: () => GroupCommit, now: number): Promise<{ storage: PetStorage; source: WriteSource }> {
  const [ids] = await client.exec('SELECT last_id FROM petstore_pet_ids');
  let lastId = Number(ids?.rows[0]?.last_id ?? 0);
  // Every committed pet (and only those), in id order.
  const pets = petIndex();
  const { all } = pets;
  for (let after = 0; ; ) {
    // A chunk as one JSON text, parsed by JSON.parse: PGlite's row objects took five times as long
    // to load (BENCHMARKS.md, Findings: figures moved from the code).
    const [chunk] = await client.exec(
      `SELECT coalesce(json_agg(json_build_array(id, name_json::json, category_id, status) ORDER BY id), '[]')::text AS pets
       FROM (SELECT id, name_json, category_id, status FROM petstore_pets WHERE id > ${integer(after)} ORDER BY id LIMIT ${LOAD_CHUNK}) p`,
    );
    const rows = JSON.parse(String(chunk?.rows[0]?.pets ?? '[]')) as [number, string, number, PetStatus | null][];
    for (const [id, name, categoryId, status] of rows) pets.add(Object.freeze(status === null ? { id, name, categoryId } : { id, name, categoryId, status }));
    if (rows.length < LOAD_CHUNK) break;
    after = all.at(-1)!.id;
  }
  // Insertion order is expiry order (one fixed lifetime), so expired keys are swept from the front.
  const keys = new Map<string, IdempotencyRecord>();
  const [live] = await client.exec(
    `SELECT key, fingerprint, pet_id, expires_at FROM petstore_idempotency WHERE expires_at > ${integer(now)} ORDER BY expires_at`,
  );
  for (const row of live?.rows ?? []) {
    const pet = get(Number(row.pet_id));
    if (pet) keys.set(String(row.key), { fingerprint: String(row.fingerprint), pet, expiresAt: Number(row.expires_at) });
  }
  /** Creates by idempotency key while their flush runs: a second call with the key waits for the first. */
  const creating = new Map<string, Promise<IdempotencyRecord>>();
  let waiting: Create[] = [];
  let inFlight: Create[] = [];
  let latest = now;

  function get(id: number): Pet | undefined {
    const at = firstAfter(all, id - 1);
    return all[at]?.id === id ? all[at] : undefined;
  }

  async function create(request: Create): Promise<Pet> {
    waiting.push(request);
    await group().next();
    return request.pet!;
  }

  const storage: PetStorage = {
    database: PGLITE,
    // Every committed pet is in memory (and only those): the count is the array's length.
    async count() {
      return all.length;
    },
    create: (newPet) => create({ newPet }),
    async createOnce(key, fingerprint, newPet, expiresAt, now): Promise<CreateOnceResult> {
      latest = Math.max(latest, now);
      const found = liveRecord(keys, key, now);
      if (found) return { record: found, created: false };
      const earlier = creating.get(key);
      if (earlier) {
        const record = await earlier.catch(() => undefined);
        if (record && record.expiresAt > now) return { record, created: false };
        return storage.createOnce(key, fingerprint, newPet, expiresAt, now);
      }
      const making = create({ newPet, key: { key, fingerprint, expiresAt } }).then((pet) => ({ fingerprint, pet, expiresAt }));
      creating.set(key, making);
      try {
        return { record: await making, created: true };
      } finally {
        creating.delete(key);
      }
    },
    async get(id) {
      return get(id);
    },
    async list(query: PetListQuery) {
      return pets.list(query);
    },
  };

  const source: WriteSource = {
    collect() {
      if (waiting.length === 0) return '';
      inFlight = waiting;
      waiting = [];
      const rows: string[] = [];
      const keyRows: string[] = [];
      let id = lastId;
      for (const request of inFlight) {
        const pet: Pet = Object.freeze({ id: ++id, ...request.newPet });
        request.pet = pet;
        rows.push(`(${integer(pet.id)}, ${literal(JSON.stringify(pet.name))}, ${integer(pet.categoryId)}, ${pet.status ? literal(pet.status) : 'NULL'})`);
        const k = request.key;
        if (k) keyRows.push(`(${literal(k.key)}, ${literal(k.fingerprint)}, ${integer(pet.id)}, ${integer(k.expiresAt)})`);
      }
      let sql = `INSERT INTO petstore_pets (id, name_json, category_id, status) VALUES ${rows.join(', ')};
        UPDATE petstore_pet_ids SET last_id = ${integer(id)};\n`;
      if (keyRows.length > 0) {
        // An expired key given again is stored over: what petstore_create_once's upsert does.
        sql += `INSERT INTO petstore_idempotency AS i (key, fingerprint, pet_id, expires_at) VALUES ${keyRows.join(', ')}
          ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, pet_id = excluded.pet_id, expires_at = excluded.expires_at;
          DELETE FROM petstore_idempotency WHERE key IN (
            SELECT e.key FROM petstore_idempotency e WHERE e.expires_at <= ${integer(latest)} LIMIT ${EXPIRED_PER_FLUSH});\n`;
      }
      return sql;
    },
    settle(committed) {
      for (const request of inFlight) {
        if (!committed) {
          request.pet = undefined;
          continue;
        }
        pets.add(request.pet!);
        lastId = request.pet!.id;
        const k = request.key;
        if (k) {
          keys.delete(k.key);
          keys.set(k.key, { fingerprint: k.fingerprint, pet: request.pet!, expiresAt: k.expiresAt });
        }
      }
      inFlight = [];
    },
  };
  return { storage, source };
}
