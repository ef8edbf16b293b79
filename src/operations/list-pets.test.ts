/** GET /pets refusing its query: the same parameters get the same 400 every time, and other parameters their own. */
import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../response/api-error.ts';
import { wireReply } from '../response/reply.ts';
import { memoryPetStorage } from '../storage/memory-pet-storage.ts';
import { listPets } from './list-pets.ts';

const settings = {
  storage: memoryPetStorage(),
  now: () => 0,
  maxBodyBytes: 1024,
  defaultStatus: undefined,
  getPetDeprecatedAt: new Date(0),
  getPetSunsetAt: new Date(0),
};

/** The 400's body for a query, as a client reads it. */
async function refusal(query: string) {
  const request = new Request(`http://localhost/v1/pets?${query}`);
  const context = { request, body: undefined, query: new URLSearchParams(query), base: '/v1', params: {}, settings, keyId: 'k' };
  const { status, body, headers } = wireReply(await listPets(context));
  if (status !== 400 || body === null) throw new Error(`${query} was answered ${status}, not refused`);
  expect(headers['Content-Type']).toBe('application/json');
  return JSON.parse(body) as ErrorBody;
}

describe('listPets refusing a query', () => {
  it('gives the same parameters the same 400 each time they come', async () => {
    const first = await refusal('limit=0');
    expect(first).toEqual({
      code: 'invalid_request',
      message: 'Invalid query: limit must be an integer from 1 to 100.',
      status: 400,
      details: [{ field: 'limit', message: 'must be an integer from 1 to 100' }],
    });
    expect(await refusal('limit=0')).toEqual(first);
    expect(await refusal('limit=0&other=1')).toEqual(first);
  });

  it('gives parameters that read alike when run together their own 400s', async () => {
    const limitWrong = await refusal('limit=1%262&status=sold');
    const statusWrong = await refusal('limit=1&status=2%26sold');
    expect(limitWrong.details).toEqual([{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
    expect(statusWrong.details?.map((detail) => detail.field)).toEqual(['status']);
    expect(await refusal('limit=1%262&status=sold')).toEqual(limitWrong);
    expect(await refusal('status=&limit=0')).not.toEqual(await refusal('limit=0'));
  });
});
