/**
 * The seed of every generated (fast-check) run: fixed, so each run tries the same cases under the
 * same test names, and a failure found once is found again; `FUZZ_SEED=<integer>` tries others.
 */
import { onTestFailed } from 'vitest';

/** The seed when FUZZ_SEED is unset: the contract run's since it began; any integer would do. */
const DEFAULT_SEED = 27;

function parseSeed(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_SEED;
  const seed = Number(text);
  // A typo must not quietly fall back to the default: the run would not be the one asked for.
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not ${JSON.stringify(text)}`);
  return seed;
}

/**
 * The seed of this run: FUZZ_SEED, or 27.
 *
 * @example
 * await fc.assert(property, { numRuns: 1_000, seed: FUZZ_SEED });
 */
export const FUZZ_SEED = parseSeed(process.env.FUZZ_SEED);

/**
 * Called inside a test: should the test fail, its output ends with the seed and the command that
 * replays it, since a test name no longer carries the seed.
 *
 * @example
 * it('answers every generated request', async () => {
 *   sayTheSeedOnFailure();
 *   await fc.assert(property, { seed: FUZZ_SEED });
 * });
 */
export function sayTheSeedOnFailure(): void {
  onTestFailed(({ task }) => console.error(`Failed with seed ${FUZZ_SEED}: replay with FUZZ_SEED=${FUZZ_SEED} npx vitest run ${task.file.name}`));
}
