/** memoryPetStorage: ids, immutability, pages, and the O(limit) cost of a filtered page. */
import { describe, expect, it } from 'vitest';
import { memoryPetStorage, type Pet } from '../../src/index.ts';

/** A storage holding `count` pets, one in `soldEvery` sold, that counts the pets it examines. */
async function countingStorage(count: number, soldEvery: number) {
  let visits = 0;
  const storage = memoryPetStorage({ onVisit: () => visits++ });
  for (let i = 1; i <= count; i++) {
    await storage.create({ name: `pet ${i}`, categoryId: 1, status: i % soldEvery === 0 ? 'sold' : 'available' });
  }
  return {
    storage,
    visitsOf: async (run: () => Promise<unknown>) => {
      visits = 0;
      await run();
      return visits;
    },
  };
}

describe('memoryPetStorage', () => {
  it('assigns ids 1, 2, 3 … in creation order and returns what it stored', async () => {
    const storage = memoryPetStorage();
    const pets = await Promise.all(['a', 'b', 'c'].map((name) => storage.create({ name, categoryId: 1 })));
    expect(pets.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(await storage.get(2)).toEqual({ id: 2, name: 'b', categoryId: 1 });
    expect(await storage.get(4)).toBeUndefined();
    expect(await storage.get(0)).toBeUndefined();
  });

  it('hands out pets that callers cannot change', async () => {
    const storage = memoryPetStorage();
    const pet = await storage.create({ name: 'a', categoryId: 1 });
    expect(() => ((pet as { name: string }).name = 'changed')).toThrow(TypeError);
    expect((await storage.get(1))?.name).toBe('a');
  });

  it('lists by status after a cursor, ascending, up to the limit', async () => {
    const { storage } = await countingStorage(100, 10);
    const page = await storage.list({ status: 'sold', after: 35, limit: 3 });
    expect(page.map((p: Pet) => p.id)).toEqual([40, 50, 60]);
    expect(await storage.list({ status: 'pending', after: 0, limit: 5 })).toEqual([]);
    expect((await storage.list({ after: 98, limit: 5 })).map((p) => p.id)).toEqual([99, 100]);
  });

  it('examines O(limit) pets for a filtered page: 20 sold of 200,000 costs what 20 sold of 2,000 costs', async () => {
    const small = await countingStorage(2_000, 10_000 / 100); // 20 sold
    const large = await countingStorage(200_000, 10_000); // 20 sold
    const query = { status: 'sold', after: 0, limit: 21 } as const;
    const smallVisits = await small.visitsOf(() => small.storage.list(query));
    const largeVisits = await large.visitsOf(() => large.storage.list(query));
    // 20 pets returned plus a binary search over the 20-entry sold index: the total pet count never enters.
    expect(smallVisits).toBeLessThanOrEqual(20 + 6);
    expect(largeVisits).toBe(smallVisits);
    // A later page costs the page plus a logarithmic search, not a scan of what came before.
    const unfiltered = await large.visitsOf(() => large.storage.list({ after: 150_000, limit: 20 }));
    expect(unfiltered).toBeLessThanOrEqual(20 + Math.ceil(Math.log2(200_000)) + 1);
  });
});
