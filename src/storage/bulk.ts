/** Whole-storage helpers for seeding and reading every pet (the test kit, the service worker's demo). */
import * as v from 'valibot';
import { NewPetSchema, type Pet, type PetStatus } from './pet.ts';
import type { PetStorage } from './pet-storage.ts';

/**
 * Stores `pets`, each validated like a `POST /pets` body (with `defaultStatus` for pets naming
 * none), in order; resolves to them with their ids. Throws a `TypeError` naming the first invalid
 * pet before storing anything.
 */
export async function seedPets(storage: PetStorage, pets: readonly unknown[], defaultStatus?: PetStatus): Promise<Pet[]> {
  const valid = pets.map((pet, index) => {
    const result = v.safeParse(NewPetSchema, pet);
    if (!result.success) throw new TypeError(`seed: pet ${index} is invalid: ${v.summarize(result.issues)}`);
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
