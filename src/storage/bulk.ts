/** Whole-storage helpers for seeding and reading every pet (the test kit, the service worker's demo). */
import * as v from 'valibot';
import { problemsInOneLine } from './issues.ts';
import { NewPetSchema, type Pet, type PetStatus } from './pet.ts';
import type { PetStorage } from './pet-storage.ts';

/** A pet given to {@link seedPets} that a `POST /pets` would refuse: which one, and why, in one line. */
export class InvalidSeedError extends TypeError {
  constructor(
    /** Its 0-based position in the list. */
    readonly index: number,
    /** What is wrong with it, each problem once, e.g. `name must not be empty; categoryId is required`. */
    readonly reason: string,
  ) {
    super(`seed: pet ${index} is invalid: ${reason}`);
    this.name = 'TypeError';
  }
}

/**
 * Stores `pets`, each validated like a `POST /pets` body (with `defaultStatus` for pets naming
 * none), in order; resolves to them with their ids. Throws an {@link InvalidSeedError} (a
 * `TypeError`) naming the first invalid pet before storing anything.
 */
export async function seedPets(storage: PetStorage, pets: readonly unknown[], defaultStatus?: PetStatus): Promise<Pet[]> {
  const valid = pets.map((pet, index) => {
    const result = v.safeParse(NewPetSchema, pet);
    if (!result.success) throw new InvalidSeedError(index, problemsInOneLine(result.issues));
    const status = result.output.status ?? defaultStatus;
    return status === undefined ? result.output : { ...result.output, status };
  });
  const stored: Pet[] = [];
  for (const pet of valid) stored.push(await storage.create(pet));
  return stored;
}

/** Every pet in `storage`, in id order, read page by page. */
export async function allPets(storage: PetStorage): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let page = await storage.list({ after: 0, limit: 1000 }); page.length > 0; ) {
    pets.push(...page);
    page = await storage.list({ after: page.at(-1)!.id, limit: 1000 });
  }
  return pets;
}
