/** generatedPets: the same pets for the same (count, seed), each a valid POST /pets body, all three statuses, and the bounds it refuses. */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { NewPetSchema } from '../../src/index.ts';
import { generatedPets, MAX_GENERATED_PETS } from './generated-pets.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('generatedPets', () => {
  it('is a pure function of (count, seed): the same JSON on every call, a different list for another seed, seed 1 when none is given', () => {
    expect(JSON.stringify(generatedPets({ count: 500, seed: 7 }))).toBe(JSON.stringify(generatedPets({ count: 500, seed: 7 })));
    expect(JSON.stringify(generatedPets({ count: 500, seed: 8 }))).not.toBe(JSON.stringify(generatedPets({ count: 500, seed: 7 })));
    expect(generatedPets({ count: 20 })).toEqual(generatedPets({ count: 20, seed: 1 }));
  });

  it('gives these exact bytes, which every runtime must give too', () => {
    // Pinned: a change here changes every seeded world; it needs a new major version and a note.
    expect(JSON.stringify(generatedPets({ count: 5, seed: 7 }))).toMatchInlineSnapshot(
      `"[{"name":"Ruby","categoryId":5,"status":"pending"},{"name":"Romeo","categoryId":1,"status":"available"},{"name":"Riley","categoryId":4,"status":"available"},{"name":"Jasper","categoryId":3,"status":"available"},{"name":"Sage","categoryId":2,"status":"sold"}]"`,
    );
    expect(sha256(JSON.stringify(generatedPets({ count: MAX_GENERATED_PETS, seed: 1 })))).toMatchInlineSnapshot(
      `"4d10b7d463c3ba9e380672bb2ba655ad417278848f98de47dee93ca8c83d7bb8"`,
    );
  });

  it('makes only pets POST /pets takes as they are: names from the list, categoryId 1 to 6, a status each', () => {
    for (const seed of [0, 1, 7, 2 ** 32 - 1]) {
      const pets = generatedPets({ count: MAX_GENERATED_PETS, seed });
      for (const pet of pets) expect(v.parse(NewPetSchema, pet)).toEqual(pet);
      expect(new Set(pets.map((pet) => pet.categoryId))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
      expect(new Set(pets.map((pet) => pet.name)).size).toBeGreaterThan(1000);
      expect(pets.every((pet) => /^[A-Z][a-z]+( [A-Z][a-z]+)?$/.test(pet.name))).toBe(true);
    }
  });

  it('has every status at least once from 3 pets on', () => {
    for (let seed = 0; seed < 50; seed++) {
      for (let count = 3; count <= 12; count++) {
        const statuses = new Set(generatedPets({ count, seed }).map((pet) => pet.status));
        expect([seed, count, [...statuses].sort()]).toEqual([seed, count, ['available', 'pending', 'sold']]);
      }
    }
    expect(generatedPets({ count: 1, seed: 3 })).toHaveLength(1);
  });

  it('refuses a count outside 1 to 10,000 or a seed outside 0 to 2^32 - 1 with a TypeError naming it', () => {
    const refusal = (options: unknown) => {
      try {
        generatedPets(options as { count: number });
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        return (error as Error).message;
      }
      throw new Error(`${JSON.stringify(options)} was accepted`);
    };
    expect(refusal({ count: 0 })).toBe('generatedPets: count must be a whole number from 1 to 10000, got 0');
    expect(refusal({ count: 10_001 })).toBe('generatedPets: count must be a whole number from 1 to 10000, got 10001');
    expect(refusal({ count: 2.5 })).toBe('generatedPets: count must be a whole number from 1 to 10000, got 2.5');
    expect(refusal({ count: '5' })).toBe('generatedPets: count must be a whole number from 1 to 10000, got "5"');
    expect(refusal({ count: 5, seed: -1 })).toBe('generatedPets: seed must be a whole number from 0 to 4294967295, got -1');
    expect(refusal({ count: 5, seed: 2 ** 32 })).toBe('generatedPets: seed must be a whole number from 0 to 4294967295, got 4294967296');
    expect(refusal({ count: 5, seed: Number.NaN })).toBe('generatedPets: seed must be a whole number from 0 to 4294967295, got NaN');
  });
});
