/** The body `POST /__admin/sandboxes` takes: nothing, `{}` or a seed; the 400 that names what else it was given. */
import { describe, expect, it } from 'vitest';
import { ApiError, parseInput } from '../../src/index.ts';
import { newSandboxSchemaFor } from './sandbox-schemas.ts';

/** The details of the 400 `body` is refused with. */
function refusal(body: unknown) {
  try {
    parseInput(newSandboxSchemaFor(body), body, 'body');
  } catch (error) {
    if (error instanceof ApiError) return error.details;
    throw error;
  }
  throw new Error(`${JSON.stringify(body)} was not refused`);
}

describe('newSandboxSchemaFor', () => {
  it('takes {} and a seed, with the pets of the seed as given', () => {
    expect(parseInput(newSandboxSchemaFor({}), {}, 'body')).toEqual({});
    const body = { seed: [{ name: 'Rex', categoryId: 1 }] };
    expect(parseInput(newSandboxSchemaFor(body), body, 'body').seed).toMatchObject([{ name: 'Rex', categoryId: 1 }]);
  });

  it('refuses an array, null or a number as no JSON object', () => {
    for (const body of [[], [{ seed: [] }], null, 7]) {
      expect(refusal(body)).toEqual([{ field: 'body', message: 'must be a JSON object, {} or {"seed": …}' }]);
    }
  });

  it('names a field that is not the seed', () => {
    expect(refusal({ pets: [] })).toEqual([{ field: 'pets', message: 'is not a field of a new sandbox (only "seed")' }]);
  });

  it('names a pet of the seed that is wrong by its place in the seed', () => {
    expect(refusal({ seed: [{ name: 'Rex', categoryId: 1 }, { name: 'Tom' }] })).toEqual([{ field: 'seed.1.categoryId', message: expect.any(String) }]);
  });
});
