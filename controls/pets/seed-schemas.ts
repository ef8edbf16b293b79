/**
 * What `seed` takes (`controls.seed`, the test kit's `seed()`, `POST /__admin/seed`): pets one by
 * one, or `{"generate": {"count", "seed"}}`, as valibot schemas that validate it and that
 * admin-openapi.ts turns into the admin document; and the one step that turns either into pets.
 */
import * as v from 'valibot';
import { NewPetSchema } from '../../src/index.ts';
import { generatedPets, MAX_GENERATED_PETS, type GenerateOptions } from './generated-pets.ts';
import { MAX_SEED } from './random.ts';

/** An integer from `min` to `max`, `message` for anything else. */
const integerFrom = (min: number, max: number, message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

/** A strict object's message: for a field it does not have, a missing one (the only issue made with a path), or a value that is no object. */
const objectMessage = (unknownField: string, notObject: string) => (issue: v.StrictObjectIssue) =>
  issue.expected === 'never' ? unknownField : issue.path ? 'is required' : notObject;

const SEED = 'must be a JSON array of pets, each like a POST /pets body, or {"generate": {"count": 25, "seed": 7}}';

/** Pets given one by one: each a `POST /pets` body. */
const SeedListSchema = v.pipe(v.array(NewPetSchema, SEED), v.description('Pets without ids, each validated like a POST /pets body.'));

/** Pets generated from a count and a seed (generated-pets.ts). */
const SeedGenerateSchema = v.pipe(
  v.strictObject(
    {
      generate: v.pipe(
        v.strictObject(
          {
            count: v.pipe(integerFrom(1, MAX_GENERATED_PETS, `must be a whole number from 1 to ${MAX_GENERATED_PETS}`), v.description('How many pets.')),
            seed: v.optional(
              v.pipe(
                integerFrom(0, MAX_SEED, `must be a whole number from 0 to ${MAX_SEED}`),
                v.description('The same seed and count give the same pets, byte for byte, in every runtime.'),
                v.metadata({ default: 1 }),
              ),
            ),
          },
          objectMessage('is not a field of generate: give count and seed', 'must be an object like {"count": 25, "seed": 7}'),
        ),
        v.description('Realistic pets (names, categoryId 1 to 6, every status from 3 pets on) as a pure function of count and seed.'),
      ),
    },
    objectMessage('is not a field of a seed: give "generate" alone', SEED),
  ),
  v.title('GeneratePets'),
);

/**
 * The body of `POST /__admin/seed`, and what `seed()` takes: pets, each a `POST /pets` body, or
 * `{"generate": {"count", "seed"}}`. Validate with {@link seedSchemaFor}, whose issues name the field.
 */
export const SeedSchema = v.union([SeedListSchema, SeedGenerateSchema], SEED);

/**
 * The form of SeedSchema `input` is meant to be, to validate it with: a union would only say that
 * neither form fits, where one form's own issues name the index or field that is wrong.
 *
 * @example
 * const seed = parseInput(seedSchemaFor(body), body, 'body');
 */
export function seedSchemaFor(input: unknown): typeof SeedListSchema | typeof SeedGenerateSchema | typeof SeedSchema {
  if (Array.isArray(input)) return SeedListSchema;
  return typeof input === 'object' && input !== null && Object.hasOwn(input, 'generate') ? SeedGenerateSchema : SeedSchema;
}

/**
 * What `seed` takes: pets (each checked like a `POST /pets` body when stored), or pets to generate.
 *
 * @example
 * const input: SeedInput = { generate: { count: 25, seed: 7 } };
 */
export type SeedInput = readonly unknown[] | { readonly generate: GenerateOptions };

/**
 * The pets `input` stands for: a list as it is (each pet is checked as it is stored, and named by
 * its index), or the pets `generate` makes. Anything else is a TypeError naming each problem, e.g.
 * `seed: generate.count must be a whole number from 1 to 10000`.
 *
 * @example
 * await seedPets(storage, petsToSeed({ generate: { count: 25, seed: 7 } }));
 */
export function petsToSeed(input: SeedInput, what = 'seed'): readonly unknown[] {
  if (Array.isArray(input)) return input;
  const result = v.safeParse(seedSchemaFor(input), input);
  if (!result.success) {
    const problems = result.issues.map((issue) => [v.getDotPath(issue), issue.message].filter(Boolean).join(' '));
    throw new TypeError(`${what}: ${problems.join('; ')}`);
  }
  return Array.isArray(result.output) ? result.output : generatedPets(result.output.generate);
}
