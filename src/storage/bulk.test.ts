/** seedPets: pets validated like POST /pets bodies, an invalid one named with each of its problems. */
import { describe, expect, it } from 'vitest';
import { InvalidSeedError, seedPets } from './bulk.ts';
import { memoryPetStorage } from './memory-pet-storage.ts';

describe('seedPets', () => {
  it('names each problem of an invalid pet once, separated, in the words a POST /pets 400 uses, and stores nothing', async () => {
    const storage = memoryPetStorage();
    const refusal = await seedPets(storage, [{ name: 'Rex', categoryId: 1 }, { name: 7 }]).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidSeedError);
    expect((refusal as Error).message).toBe('seed: pet 1 is invalid: name must be a string; categoryId is required');
    expect(await storage.list({ after: 0, limit: 10 })).toEqual([]);
  });

  it('says a pet that is not an object is not one', async () => {
    await expect(seedPets(memoryPetStorage(), [null])).rejects.toThrow('seed: pet 0 is invalid: it must be an object');
  });
});
