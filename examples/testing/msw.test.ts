/** MSW interop: MSW intercepts the client's real fetch calls and hands them to the fake backend. */
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTestPetStore } from 'petstore-service/testing';
import { createPetClient } from './pet-client.ts';

const base = 'https://api.example.com/v1';
const petstore = createTestPetStore();
const mswServer = setupServer(http.all(`${base}/*`, ({ request }) => petstore.fetch(request)));

beforeAll(() => mswServer.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => petstore.reset());
afterAll(() => mswServer.close());

it('answers a client that uses the global fetch, through MSW', async () => {
  const client = createPetClient({ baseUrl: base, apiKey: petstore.keys.pro }); // global fetch
  const pet = await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
  expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
  expect(await client.listPets({ status: 'available' })).toEqual([pet]);
  await expect(createPetClient({ baseUrl: base, apiKey: 'wrong' }).listPets()).rejects.toThrow('401 unauthorized');
});
