/** Testing a client against the fake backend: no network, no real waiting, state reset per test. */
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestPetStore, listen } from 'petstore-service/testing';
import { createPetClient } from './pet-client.ts';

const petstore = createTestPetStore();
const client = createPetClient({
  baseUrl: 'http://api.test/v1',
  apiKey: petstore.keys.free,
  fetch: petstore.fetch, // the handler is the network
  sleep: (ms) => petstore.clock.advance(ms), // backing off moves the clock, not the test
});

beforeEach(() => petstore.reset());

describe('pet client', () => {
  it('creates and lists pets; every test starts from id 1', async () => {
    expect(await client.createPet({ name: 'Rex', categoryId: 1 })).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
    expect(await client.listPets()).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
  });

  it('gets a full quota again after reset(), and ids from 1', async () => {
    const pet = await client.createPet({ name: 'Tom', categoryId: 2 });
    expect(pet.id).toBe(1);
    const response = await petstore.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${petstore.keys.free}` } });
    expect(response.headers.get('x-ratelimit-remaining')).toBe('58');
  });

  it('waits out a 429 for Retry-After seconds, on the manual clock', async () => {
    await petstore.seed([{ name: 'Kit', categoryId: 3 }]);
    for (let i = 0; i < 60; i++) await client.listPets();
    const before = petstore.clock.now();
    expect(await client.listPets()).toHaveLength(1);
    const statuses = petstore.requests.slice(-2).map((r) => r.status);
    expect(statuses).toEqual([429, 200]);
    expect(petstore.clock.now() - before).toBe(Number(petstore.requests.at(-2)!.responseHeaders['retry-after']) * 1000);
  });

  it('retries a create after a 503 with its Idempotency-Key and ends with exactly one pet', async () => {
    // The server stores the pet, but the client only sees a 503: the classic lost response.
    petstore.faults.failNext(1, { status: 503, method: 'POST', afterHandling: true });
    const pet = await client.createPet({ name: 'Olly', categoryId: 4 });
    expect(petstore.requests.map((r) => r.status)).toEqual([503, 201]);
    expect(petstore.requests[1]!.responseHeaders['idempotent-replayed']).toBe('true');
    expect(await petstore.pets()).toEqual([pet]);
  });

  it('logs what it received, with the key redacted', async () => {
    await client.listPets({ status: 'sold' });
    const [exchange] = petstore.requests;
    expect(exchange).toMatchObject({ method: 'GET', url: 'http://api.test/v1/pets?status=sold', status: 200 });
    expect(exchange!.requestHeaders.authorization).toBe('Bearer [redacted]');
  });

  it('serves the same store on a real port when a client needs a URL', async () => {
    await using server = await listen(petstore);
    const overHttp = createPetClient({ baseUrl: server.url, apiKey: petstore.keys.pro });
    await overHttp.createPet({ name: 'Net', categoryId: 5 });
    expect(await client.listPets()).toEqual([{ id: 1, name: 'Net', categoryId: 5 }]);
  });
});
