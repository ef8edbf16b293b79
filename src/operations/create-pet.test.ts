/** POST /pets as a storage of your own sees it: the pet it is handed, and the key a create without a caller's key is kept under. */
import { describe, expect, it } from 'vitest';
import type { NewPet } from '../storage/pet.ts';
import { memoryPetStorage } from '../storage/memory-pet-storage.ts';
import type { PetStorage } from '../storage/pet-storage.ts';
import { createPet } from './create-pet.ts';

/** A memory storage that records each pet and idempotency key it is handed. */
function recordingStorage() {
  const inner = memoryPetStorage();
  const handed: NewPet[] = [];
  const keys: string[] = [];
  const storage: PetStorage = {
    ...inner,
    create: (pet) => (handed.push(pet), inner.create(pet)),
    createOnce: (key, fingerprint, pet, expiresAt, now) => (keys.push(key), handed.push(pet), inner.createOnce(key, fingerprint, pet, expiresAt, now)),
  };
  return { storage, handed, keys };
}

/** POST /v1/pets of `body`, with `headers`, by the caller `keyId`, to a store with this storage and default status. */
function create(
  storage: PetStorage,
  body: unknown,
  { headers = {}, keyId, defaultStatus }: { headers?: Record<string, string>; keyId?: string; defaultStatus?: 'available' },
) {
  const request = new Request('http://localhost/v1/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const settings = { storage, now: () => 0, maxBodyBytes: 1024, defaultStatus, getPetDeprecatedAt: new Date(0), getPetSunsetAt: new Date(0) };
  return createPet({ request, body: undefined, query: new URLSearchParams(), base: '/v1', params: {}, settings, keyId });
}

describe('createPet handing a pet to a storage of your own', () => {
  it('hands a pet sent without a status, in a store with no default status, without a status key at all', async () => {
    const { storage, handed } = recordingStorage();
    await create(storage, { name: 'Rex', categoryId: 1 }, {});
    await create(storage, { name: 'Rex', categoryId: 1 }, { headers: { 'idempotency-key': 'k1' } });
    expect(handed.map((pet) => Object.keys(pet))).toEqual([
      ['name', 'categoryId'],
      ['name', 'categoryId'],
    ]);
  });

  it('hands a pet sent without a status the default status of its store', async () => {
    const { storage, handed } = recordingStorage();
    await create(storage, { name: 'Rex', categoryId: 1 }, { defaultStatus: 'available' });
    expect(handed).toEqual([{ name: 'Rex', categoryId: 1, status: 'available' }]);
  });

  it('keeps an Idempotency-Key sent without a caller key under anonymous, apart from any caller of its own', async () => {
    const { storage, keys } = recordingStorage();
    await create(storage, { name: 'Rex', categoryId: 1 }, { headers: { 'idempotency-key': 'k1' } });
    await create(storage, { name: 'Rex', categoryId: 1 }, { headers: { 'idempotency-key': 'k1' }, keyId: 'key-7' });
    expect(keys).toEqual(['anonymous:k1', 'key-7:k1']);
  });
});
