/** The command's demo flags that take a shape of their own: `--delay <ms|min-max>` and `--generate <count>[:<seed>]`, read and checked before anything starts. */
import { type DelayRange, type GenerateOptions, MAX_GENERATED_PETS, MAX_SEED } from '../controls/index.ts';

/** The longest wait a timer can hold: a fault rule refuses more, and the command must say so before it starts. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * `--delay` as a fault's `delayMs`: `300` (every answer 300 ms late) or `100-400` (each answer
 * late by a whole number of ms drawn from 100 to 400, both included), `0` for none.
 *
 * @example
 * readDelay('100-400'); // { min: 100, max: 400 }
 */
export function readDelay(text = '0'): number | DelayRange {
  const match = /^([0-9]{1,10})(?:-([0-9]{1,10}))?$/.exec(text);
  const [min, max] = match ? [Number(match[1]), Number(match[2] ?? match[1])] : [Number.NaN, Number.NaN];
  if (!(min <= MAX_DELAY_MS && max <= MAX_DELAY_MS)) {
    throw new Error(`--delay must be milliseconds (300) or a range of them (100-400), whole numbers from 0 to ${MAX_DELAY_MS}, got "${text}"`);
  }
  if (min > max) throw new Error(`--delay ${text} runs from high to low; write the smaller number first, e.g. --delay ${max}-${min}`);
  // 0-0 is no delay, and 300-300 a fixed one: said as the plain number, as a fault rule takes it.
  return min === max ? min : { min, max };
}

/**
 * How `--delay` reads in the start lines: `300 ms`, `100-400 ms`.
 *
 * @example
 * delayInWords({ min: 100, max: 400 }); // '100-400 ms'
 */
export function delayInWords(delay: number | DelayRange): string {
  return typeof delay === 'number' ? `${delay} ms` : `${delay.min}-${delay.max} ms`;
}

/**
 * `--generate` (or PETSTORE_GENERATE, named `from` in a refusal): `25` (25 pets from seed 1) or
 * `25:7` (from seed 7), as generatedPets takes it.
 *
 * @example
 * readGenerate('25:7'); // { count: 25, seed: 7 }
 */
export function readGenerate(text: string | undefined, from = '--generate'): Required<GenerateOptions> | undefined {
  if (text === undefined) return undefined;
  const match = /^([0-9]{1,10})(?::([0-9]{1,10}))?$/.exec(text);
  const count = match ? Number(match[1]) : Number.NaN;
  const seed = match?.[2] === undefined ? 1 : Number(match[2]);
  if (!(count >= 1 && count <= MAX_GENERATED_PETS && seed <= MAX_SEED)) {
    throw new Error(
      `${from} must be COUNT or COUNT:SEED, a count from 1 to ${MAX_GENERATED_PETS} and a seed from 0 to ${MAX_SEED}, e.g. --generate 25:7, got "${text}"`,
    );
  }
  return { count, seed };
}
