/**
 * The fake backend's one seeded random source (mulberry32): the generated pets and the faults' jitter
 * and probability draw from it, so a seed gives the same pets and the same delays in every runtime.
 */

/** The largest seed: seeds are unsigned 32-bit integers. */
export const MAX_SEED = 2 ** 32 - 1;

/**
 * A stream of unsigned 32-bit integers from `seed` (0 to 2^32 - 1), the same in every runtime:
 * mulberry32 uses only 32-bit integer arithmetic (`Math.imul`, shifts, `>>> 0`), never a float
 * or the engine's own random.
 *
 * @example
 * const next = randomWords(7);
 * next(); // the same first word for seed 7 in Node, Deno, browsers and workerd
 */
export function randomWords(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * A stand-in for `Math.random` from `seed`: numbers from 0 (inclusive) to 1 (exclusive), each a
 * 32-bit word divided by 2^32, which every IEEE 754 runtime computes exactly alike.
 *
 * @example
 * const faults = createFaults({ random: seededRandom(7) }); // the same delays and hits every run
 */
export function seededRandom(seed: number): () => number {
  const next = randomWords(seed);
  return () => next() / 2 ** 32;
}

/**
 * A whole number from `min` to `max`, both included, drawn from `random` (a `Math.random` stand-in).
 *
 * @example
 * between(100, 400, seededRandom(7)); // e.g. 273, the same every run
 */
export function between(min: number, max: number, random: () => number): number {
  return min + Math.floor(random() * (max - min + 1));
}
