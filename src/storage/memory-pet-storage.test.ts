/** memoryPetStorage: ids, immutability, pages, and the logarithmic search that starts a page. */
import { describe, expect, it } from 'vitest';
import { memoryPetStorage } from './memory-pet-storage.ts';
import { firstAfter } from './pet-index.ts';
import type { Pet } from './pet.ts';

/** `pets` ids 1..count, as an array that counts the elements read from it. */
function countingPets(count: number) {
  const pets = Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `pet ${i + 1}`, categoryId: 1 }));
  let reads = 0;
  const counted = new Proxy(pets, {
    get(target, property, receiver) {
      if (typeof property === 'string' && /^[0-9]+$/.test(property)) reads++;
      return Reflect.get(target, property, receiver);
    },
  });
  return { pets: counted, reads: () => reads };
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
    const storage = memoryPetStorage();
    for (let i = 1; i <= 100; i++) await storage.create({ name: `pet ${i}`, categoryId: 1, status: i % 10 === 0 ? 'sold' : 'available' });
    const page = await storage.list({ status: 'sold', after: 35, limit: 3 });
    expect(page.map((p: Pet) => p.id)).toEqual([40, 50, 60]);
    expect(await storage.list({ status: 'pending', after: 0, limit: 5 })).toEqual([]);
    expect((await storage.list({ after: 98, limit: 5 })).map((p) => p.id)).toEqual([99, 100]);
  });
});

describe('firstAfter, where a page starts', () => {
  it('finds the first pet after a cursor by reading O(log n) pets: 21 reads at most for 10^6', () => {
    const { pets, reads } = countingPets(1_000_000);
    expect(firstAfter(pets, 0)).toBe(0);
    expect(firstAfter(pets, 654_321)).toBe(654_321);
    expect(firstAfter(pets, 1_000_000)).toBe(1_000_000);
    expect(reads()).toBeLessThanOrEqual(3 * Math.ceil(Math.log2(1_000_001)));
  });
});
