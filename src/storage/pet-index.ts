/** Pets in id order with one list per status beside them: what the stores that keep every pet in memory page through. */
import type { Pet, PetStatus } from './pet.ts';
import type { PetListQuery } from './pet-storage.ts';

/** The pets a store holds in memory, every list sorted by id (ids only grow and pets are only appended). */
export interface PetIndex {
  /** Every pet, by id. */
  readonly all: readonly Pet[];
  /** Appends `pet`, whose id is above every other's, to the list of all and to its status's. */
  add(pet: Pet): void;
  /** A page: up to `limit` pets with an id above `after`, of `status` if given; O(log n + limit). */
  list(query: PetListQuery): Pet[];
}

/**
 * An empty {@link PetIndex}.
 *
 * @example
 * const pets = petIndex();
 * pets.add(Object.freeze({ id: 1, name: 'Rex', status: 'available' }));
 * pets.list({ status: 'available', after: 0, limit: 20 }); // [{ id: 1, … }]
 */
export function petIndex(): PetIndex {
  const all: Pet[] = [];
  const byStatus = new Map<PetStatus, Pet[]>();
  return {
    all,
    add(pet) {
      all.push(pet);
      if (!pet.status) return;
      const index = byStatus.get(pet.status) ?? [];
      index.push(pet);
      byStatus.set(pet.status, index);
    },
    list({ status, after, limit }) {
      const pets = status === undefined ? all : (byStatus.get(status) ?? []);
      const start = firstAfter(pets, after);
      return pets.slice(start, start + limit);
    },
  };
}

/**
 * Binary search: index of the first pet with an id greater than `after`.
 *
 * @example
 * const at = firstAfter(pets.all, id - 1);
 * const pet = pets.all[at]?.id === id ? pets.all[at] : undefined;
 */
export function firstAfter(pets: readonly Pet[], after: number): number {
  let low = 0;
  let high = pets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (pets[middle]!.id <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
