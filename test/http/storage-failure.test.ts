/** A storage that throws: generic 500s, nothing leaked, the server keeps serving. */
import { describe, expect, it } from 'vitest';
import type { PetStorage } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { expectError, postPet, startServer } from '../helpers/server.ts';

/** A memory storage whose `operation` throws `thrown` once. */
function failingOnce(operation: keyof PetStorage, thrown: unknown): PetStorage {
  const inner = memoryPetStorage();
  let failed = false;
  return {
    create: (pet) => inner.create(pet),
    createOnce: (...args) => inner.createOnce(...args),
    get: (id) => inner.get(id),
    list: (query) => inner.list(query),
    [operation]: async (...args: never[]) => {
      if (!failed) {
        failed = true;
        throw thrown;
      }
      return (inner[operation] as (...a: never[]) => unknown)(...args);
    },
  };
}

describe('storage failures', () => {
  it.each([
    ['list', '/pets', new Error('connection reset by db.internal:5432')],
    ['get', '/pets/1', new TypeError('Cannot read properties of undefined')],
    ['list', '/pets', 'a thrown string'],
    ['get', '/pets/1', null],
  ] as const)('a failing %s answers 500 internal_error with a generic message, then serves normally', async (operation, path, thrown) => {
    const errors: unknown[] = [];
    const server = await startServer({ storage: failingOnce(operation, thrown), onError: (e) => errors.push(e) });
    await postPet(server, { name: 'Rex', categoryId: 1 });
    const body = await expectError(await server.api(path), 500, 'internal_error');
    expect(body.message).toBe('The server failed to handle the request. Try again later.');
    expect(errors).toEqual([thrown]);
    expect((await server.api(path)).status).toBe(200);
  });
});
