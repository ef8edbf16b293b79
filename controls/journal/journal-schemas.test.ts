/** The body `POST /__admin/verify` takes, `verify()`'s arguments in JSON, and the 400 that names each field it cannot take. */
import { describe, expect, it } from 'vitest';
import { ApiError, parseInput } from '../../src/index.ts';
import { VerificationSchema } from './journal-schemas.ts';

/** The details of the 400 `body` is refused with. */
function refusal(body: unknown) {
  try {
    parseInput(VerificationSchema, body, 'body');
  } catch (error) {
    if (error instanceof ApiError) return error.details;
    throw error;
  }
  throw new Error(`${JSON.stringify(body)} was not refused`);
}

describe('VerificationSchema', () => {
  it('takes a method, a path, a status and times', () => {
    const body = { method: 'POST', path: '/v1/pets', status: 201, times: 1 };
    expect(parseInput(VerificationSchema, body, 'body')).toEqual(body);
  });

  it('names a field that is not one, times missing, and a body that is no object', () => {
    expect(refusal({ times: 1, count: 2 })).toEqual([{ field: 'count', message: 'is not a field of a verification' }]);
    expect(refusal({ method: 'GET' })).toEqual([{ field: 'times', message: 'is required' }]);
    expect(refusal('times=1')).toEqual([{ field: 'body', message: 'must be an object' }]);
  });
});
