/** The default storage: pets in memory, with a per-status index so filtered pages cost O(limit). */
import type { NewPet, Pet, PetStatus } from '../schemas.ts';
import type { CreateOnceResult, IdempotencyRecord, PetListQuery, PetStorage } from './types.ts';

/** Options of {@link memoryPetStorage}. */
export interface MemoryPetStorageOptions {
  /**
   * Called with each stored pet the storage examines while answering `list` or `get`.
   * For tests and profiling: it shows how much work a query costs.
   */
  readonly onVisit?: (pet: Pet) => void;
}

/**
 * A {@link PetStorage} in process memory. Ids come from a counter, so they are never reused;
 * `create` runs without awaiting, so concurrent creates cannot interleave.
 *
 * @example
 * const petstore = createPetStore({ storage: memoryPetStorage() });
 */
export function memoryPetStorage(options: MemoryPetStorageOptions = {}): PetStorage {
  const { onVisit } = options;
  // Both arrays stay sorted by id because ids only grow and pets are only appended.
  const all: Pet[] = [];
  const byStatus = new Map<PetStatus, Pet[]>();
  // Insertion order is expiry order (one fixed lifetime), so expired keys are swept from the front.
  const idempotency = new Map<string, IdempotencyRecord>();

  const page = (pets: readonly Pet[], after: number, limit: number): Pet[] => {
    const start = firstAfter(pets, after, onVisit);
    const result = pets.slice(start, start + limit);
    if (onVisit) result.forEach(onVisit);
    return result;
  };

  const store = (newPet: NewPet): Pet => {
    const pet: Pet = Object.freeze({ id: all.length + 1, ...newPet });
    all.push(pet);
    if (pet.status) {
      const index = byStatus.get(pet.status) ?? [];
      index.push(pet);
      byStatus.set(pet.status, index);
    }
    return pet;
  };

  return {
    async create(newPet: NewPet): Promise<Pet> {
      return store(newPet);
    },
    async createOnce(key, fingerprint, newPet, expiresAt, now): Promise<CreateOnceResult> {
      for (const [oldKey, record] of idempotency) {
        if (record.expiresAt > now) break;
        idempotency.delete(oldKey);
      }
      const found = idempotency.get(key);
      if (found && found.expiresAt > now) return { record: found, created: false };
      const record = { fingerprint, pet: store(newPet), expiresAt };
      idempotency.delete(key);
      idempotency.set(key, record);
      return { record, created: true };
    },
    async get(id: number): Promise<Pet | undefined> {
      const pet = all[id - 1];
      if (pet) onVisit?.(pet);
      return pet;
    },
    async list({ status, after, limit }: PetListQuery): Promise<Pet[]> {
      const pets = status === undefined ? all : (byStatus.get(status) ?? []);
      return page(pets, after, limit);
    },
  };
}

/** Binary search: index of the first pet with an id greater than `after`. */
function firstAfter(pets: readonly Pet[], after: number, onVisit?: (pet: Pet) => void): number {
  let low = 0;
  let high = pets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const pet = pets[middle]!;
    onVisit?.(pet);
    if (pet.id <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
