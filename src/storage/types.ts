/** The storage contract every pet store (memory, IndexedDB, Redis, yours) fulfils. */
import type { NewPet, Pet, PetStatus } from '../schemas.ts';

/** What `GET /pets` asks a storage for. */
export interface PetListQuery {
  /** Only pets with exactly this status; pets stored without a status never match. */
  readonly status?: PetStatus;
  /** Only pets with an id greater than this (the decoded cursor); 0 means from the start. */
  readonly after: number;
  /** At most this many pets. */
  readonly limit: number;
}

/**
 * Where pets live. Every method is async so that remote and browser stores fit.
 *
 * Contract: ids are positive integers from 1, strictly increasing in creation order and
 * never reused, unique under concurrent `create` calls; a `create` that rejects leaves
 * nothing behind; `list` returns pets in ascending id order. Returned pets must not be
 * mutated by callers.
 */
export interface PetStorage {
  /** Stores a validated pet under a new id and returns it. */
  create(pet: NewPet): Promise<Pet>;
  /** The pet with this id, or `undefined`. */
  get(id: number): Promise<Pet | undefined>;
  /** Up to `limit` pets with `id > after` (and the given status), ascending by id. */
  list(query: PetListQuery): Promise<Pet[]>;
}
