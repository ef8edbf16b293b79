/**
 * POST /__admin/seed with {"generate": …} on a real node:http server: the pets generatedPets gives,
 * stored with ids from 1 and listed by the API, and a bad generate a 400 naming the field. Every
 * admin response is checked against the served admin document after each test.
 */
import { describe, expect, it } from 'vitest';
import { generatedPets } from '../../controls/index.ts';
import { adminServer, json } from '../helpers/admin-server.ts';
import { expectError } from '../helpers/server.ts';

describe('POST /__admin/seed {"generate": …}', () => {
  it('stores exactly the pets generatedPets gives for the count and seed, which the API then lists', async () => {
    const server = await adminServer();
    const expected = generatedPets({ count: 25, seed: 7 }).map((pet, index) => ({ id: index + 1, ...pet }));
    const seeded = await server.admin('/seed', json({ generate: { count: 25, seed: 7 } }));
    expect(seeded.status).toBe(201);
    expect(await seeded.json()).toEqual(expected);
    expect(await (await server.admin('/pets')).json()).toEqual(expected);
    expect(await (await server.api('/pets?limit=100')).json()).toEqual(expected);
    const again = await server.admin('/seed', json({ generate: { count: 3 } }));
    expect((await again.json()).map((pet: { id: number }) => pet.id)).toEqual([26, 27, 28]);
  });

  it('refuses a count, seed or field it cannot take with a 400 naming it, and stores nothing', async () => {
    const server = await adminServer();
    const refusal = async (body: unknown) => (await expectError(await server.admin('/seed', json(body)), 400, 'invalid_request')).details;
    expect(await refusal({ generate: { count: 10_001 } })).toEqual([{ field: 'generate.count', message: 'must be a whole number from 1 to 10000' }]);
    expect(await refusal({ generate: { count: 3, seed: -1 } })).toEqual([{ field: 'generate.seed', message: 'must be a whole number from 0 to 4294967295' }]);
    expect(await refusal({ generate: {} })).toEqual([{ field: 'generate.count', message: 'is required' }]);
    expect(await refusal({ generate: { count: 3, colour: 'red' } })).toEqual([
      { field: 'generate.colour', message: 'is not a field of generate: give count and seed' },
    ]);
    expect(await refusal({ generate: { count: 3 }, pets: [] })).toEqual([{ field: 'pets', message: 'is not a field of a seed: give "generate" alone' }]);
    expect(await refusal({ name: 'Rex', categoryId: 1 })).toEqual([
      { field: 'body', message: 'must be a JSON array of pets, each like a POST /pets body, or {"generate": {"count": 25, "seed": 7}}' },
    ]);
    expect(await (await server.admin('/pets')).json()).toEqual([]);
  });
});
