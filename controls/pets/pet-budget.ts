/** The bound on pets in all of a fake backend's worlds together: one count that the main world and every sandbox draw on, given back when a world is reset or deleted. */
import { ApiError, seedPets, type NewPet, type Pet, type PetStatus, type PetStorage } from '../../src/index.ts';

/**
 * How many more pets a fake backend's worlds may hold, all together.
 *
 * @example
 * const budget = createPetBudget(250_000);
 * budget.take(10_000); // a seed of 10,000, or the 507 naming the bound
 */
export interface PetBudget {
  /** The most pets in all worlds together. */
  readonly max: number;
  /** The pets held now. */
  readonly held: number;
  /** Counts `count` more pets, or throws the 507 `insufficient_storage` naming the bound and counts none. */
  take(count: number): void;
  /** Counts `count` pets fewer: a world reset or deleted, a create that stored nothing. */
  give(count: number): void;
}

/**
 * The 507 of a create or a seed that would pass `max`: it names the bound and the ways back under it.
 *
 * @example
 * throw tooManyPets(250_000);
 */
export function tooManyPets(max: number): ApiError {
  return new ApiError({
    status: 507,
    code: 'insufficient_storage',
    message:
      `The fake backend holds at most ${max} pets in all its worlds (--pets, or the admin option pets): ` +
      'delete sandboxes (DELETE /__admin/sandboxes/{id}) or reset (POST /__admin/reset).',
  });
}

/**
 * A budget of `max` pets.
 *
 * @example
 * const budget = createPetBudget(250_000);
 * const worlds = createWorlds({ …, petBudget: budget });
 */
export function createPetBudget(max: number): PetBudget {
  let held = 0;
  return {
    max,
    get held() {
      return held;
    },
    take(count) {
      if (held + count > max) throw tooManyPets(max);
      held += count;
    },
    give(count) {
      held = Math.max(0, held - count);
    },
  };
}

/**
 * One world's storage drawing on `budget`: what it stores is counted, and given back all at once by
 * `release` (the world's reset, or its deletion).
 *
 * @example
 * const bounded = boundedStorage(memoryPetStorage(), budget);
 * await bounded.seed([{ name: 'Rex', categoryId: 1 }]);
 * bounded.release(); // on reset
 */
export interface BoundedStorage {
  /** The storage the world's API uses: a create past the bound is the 507, and stores nothing. */
  readonly storage: PetStorage;
  /** Stores `pets` as seedPets does, all counted before any is stored: past the bound, none is. */
  seed(pets: readonly unknown[], defaultStatus?: PetStatus): Promise<Pet[]>;
  /** Gives back every pet this world holds; a create finishing later gives its pet back at once. */
  release(): void;
}

/**
 * `storage` bounded by `budget`.
 *
 * @example
 * const { storage } = boundedStorage(memoryPetStorage(), createPetBudget(1_000));
 */
export function boundedStorage(storage: PetStorage, budget: PetBudget): BoundedStorage {
  let held = 0;
  let released = false;
  // A pet counted before it is stored (so concurrent creates cannot pass the bound together), kept
  // if it was stored, given back if not, or at once if the world was reset in between.
  const counted = async <T>(count: number, store: () => Promise<T>, stored: (result: T) => number): Promise<T> => {
    budget.take(count);
    let kept = 0;
    try {
      const result = await store();
      kept = stored(result);
      return result;
    } finally {
      budget.give(released ? count : count - kept);
      if (!released) held += kept;
    }
  };
  // Memory storages only (the budget is a fake backend's): what they have besides is theirs as it is.
  const bounded: PetStorage = {
    ...storage,
    create: (pet: NewPet) =>
      counted(
        1,
        () => storage.create(pet),
        () => 1,
      ),
    createOnce: (key, fingerprint, pet, expiresAt, now) =>
      counted(
        1,
        () => storage.createOnce(key, fingerprint, pet, expiresAt, now),
        ({ created }) => (created ? 1 : 0),
      ),
  };
  return {
    storage: bounded,
    // The whole list is counted before the first pet is stored (so a seed past the bound is the 507
    // even when a pet of it is invalid); an invalid one stores none and gives the count back.
    seed: (pets, defaultStatus) =>
      counted(
        pets.length,
        () => seedPets(storage, pets, defaultStatus),
        (stored) => stored.length,
      ),
    release() {
      released = true;
      budget.give(held);
      held = 0;
    },
  };
}
