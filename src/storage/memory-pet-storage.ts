/** The default pet storage: pets in memory, with a per-status index so filtered pages cost O(limit). */
import type { NewPet, Pet } from './pet.ts';
import { petIndex } from './pet-index.ts';
import type { CreateOnceResult, IdempotencyRecord, PetListQuery, PetStorage } from './pet-storage.ts';

/**
 * A {@link PetStorage} in process memory. Ids come from a counter, so they are never reused;
 * `create` runs without awaiting, so concurrent creates cannot interleave. `count` is the
 * length of its array of pets. It has no `database` and no `ping`: nothing of it can be down
 * while the process is up.
 *
 * @example
 * const petstore = createPetStore({ storage: memoryPetStorage() });
 */
export function memoryPetStorage(): PetStorage {
  const pets = petIndex();
  // Insertion order is expiry order (one fixed lifetime), so expired keys are swept from the front.
  const idempotency = new Map<string, IdempotencyRecord>();

  const store = (newPet: NewPet): Pet => {
    const pet: Pet = Object.freeze({ id: pets.all.length + 1, ...newPet });
    pets.add(pet);
    return pet;
  };

  return {
    async count(): Promise<number> {
      return pets.all.length;
    },
    async create(newPet: NewPet): Promise<Pet> {
      return store(newPet);
    },
    async createOnce(key, fingerprint, newPet, expiresAt, now): Promise<CreateOnceResult> {
      const found = liveRecord(idempotency, key, now);
      if (found) return { record: found, created: false };
      const record = { fingerprint, pet: store(newPet), expiresAt };
      idempotency.delete(key);
      idempotency.set(key, record);
      return { record, created: true };
    },
    async get(id: number): Promise<Pet | undefined> {
      return pets.all[id - 1];
    },
    async list(query: PetListQuery): Promise<Pet[]> {
      return pets.list(query);
    },
  };
}

/**
 * The record of idempotency key `key` if it has not expired at `now`, once the expired records at
 * the front of `records` are deleted: a map whose insertion order is expiry order (one fixed
 * lifetime), as the memory stores keep theirs, so a sweep stops at the first live record.
 *
 * @example
 * const found = liveRecord(idempotency, key, now);
 * if (found) return { record: found, created: false };
 */
export function liveRecord(records: Map<string, IdempotencyRecord>, key: string, now: number): IdempotencyRecord | undefined {
  for (const [oldKey, record] of records) {
    if (record.expiresAt > now) break;
    records.delete(oldKey);
  }
  const found = records.get(key);
  return found && found.expiresAt > now ? found : undefined;
}
