/** The seeded random source: mulberry32 exactly, the same stream for the same seed, and whole numbers inside the range asked for. */
import { describe, expect, it } from 'vitest';
import { between, randomWords, seededRandom } from './random.ts';

/** mulberry32 as its author published it, to hold ours to the reference. */
function reference(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('seededRandom', () => {
  it('is mulberry32: the reference stream for each seed, every word an unsigned 32-bit integer', () => {
    for (const seed of [0, 1, 7, 2 ** 31, 2 ** 32 - 1]) {
      const ours = seededRandom(seed);
      const theirs = reference(seed);
      for (let i = 0; i < 1000; i++) expect(ours()).toBe(theirs());
      const words = randomWords(seed);
      for (let i = 0; i < 100; i++) expect(words()).toSatisfy((word: number) => Number.isInteger(word) && word >= 0 && word < 2 ** 32);
    }
  });
});

describe('between', () => {
  it('draws whole numbers from min to max, both reached, none outside', () => {
    const random = seededRandom(7);
    const drawn = new Set(Array.from({ length: 2000 }, () => between(100, 110, random)));
    expect([...drawn].sort((a, b) => a - b)).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110]);
    expect(between(5, 5, random)).toBe(5);
    expect(between(0, 2 ** 31 - 1, () => 0.9999999999)).toBe(2 ** 31 - 1);
  });
});
