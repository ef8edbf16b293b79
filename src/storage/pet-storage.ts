/** The contract every pet storage (memory, IndexedDB, Redis, yours) fulfils. */
import type { StoreDatabase } from './database.ts';
import type { NewPet, Pet, PetStatus } from './pet.ts';

/**
 * What `GET /pets` asks a storage for.
 *
 * @example
 * const secondPage: PetListQuery = { status: 'available', after: 20, limit: 21 };
 */
export interface PetListQuery {
  /** Only pets with exactly this status; pets stored without a status never match. */
  readonly status?: PetStatus;
  /** Only pets with an id greater than this (the decoded cursor); 0 means from the start. */
  readonly after: number;
  /** At most this many pets. */
  readonly limit: number;
}

/**
 * What a storage remembers about an `Idempotency-Key`: the create it answered.
 *
 * @example
 * const record: IdempotencyRecord = { fingerprint: '["Rex",1,null]', pet: { id: 7, name: 'Rex', categoryId: 1 }, expiresAt: Date.now() + 86_400_000 };
 */
export interface IdempotencyRecord {
  /** Identifies the request body the key was first used with. */
  readonly fingerprint: string;
  /** The pet that create stored. */
  readonly pet: Pet;
  /** When the key may be forgotten, epoch ms. */
  readonly expiresAt: number;
}

/**
 * The outcome of {@link PetStorage.createOnce}.
 *
 * @example
 * const { record, created } = await storage.createOnce(key, fingerprint, newPet, expiresAt, now);
 */
export interface CreateOnceResult {
  /** The record now held for the key: the new one, or the one found. */
  readonly record: IdempotencyRecord;
  /** True when this call stored the pet; false when a live record already existed. */
  readonly created: boolean;
}

/**
 * Where pets live. Every method is async so that remote and browser storages fit.
 *
 * Contract: ids are positive integers from 1, strictly increasing in creation order and
 * never reused, unique under concurrent `create` calls; a `create` that rejects leaves
 * nothing behind; `list` returns pets in ascending id order. Returned pets must not be
 * mutated by callers. `describePetStorageConformance` (petstore-service/storage-conformance)
 * checks all of it.
 *
 * @example
 * const storage: PetStorage = redisPetStorage(client); // or memoryPetStorage(), idbPetStorage(), yours
 * const petstore = createPetStore({ storage });
 */
export interface PetStorage {
  /** Stores a validated pet under a new id and returns it. */
  create(pet: NewPet): Promise<Pet>;
  /**
   * Create guarded by an idempotency key, atomically: when a record for `key` exists and
   * `expiresAt > now`, return it and store nothing; otherwise store `pet` (as `create` does) and a
   * record `{ fingerprint, pet, expiresAt }` under `key`, together or not at all.
   */
  createOnce(key: string, fingerprint: string, pet: NewPet, expiresAt: number, now: number): Promise<CreateOnceResult>;
  /** The pet with this id, or `undefined`. */
  get(id: number): Promise<Pet | undefined>;
  /** Up to `limit` pets with `id > after` (and the given status), ascending by id. */
  list(query: PetListQuery): Promise<Pet[]>;
  /** The database server the pets are kept in; none for a storage in the process (memory, IndexedDB). */
  readonly database?: StoreDatabase;
  /** Resolves when the database answers, rejects when it does not: `GET /readyz` asks. Omit it where nothing can be down. */
  ping?(): Promise<void>;
  /** How many pets are stored, where the storage can tell cheaply: the `petstore.pets` gauge. */
  count?(): Promise<number>;
}
