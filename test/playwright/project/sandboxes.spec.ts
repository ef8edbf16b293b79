/**
 * Twenty-two tests that each take a whole world for granted: its ids, the free key's minute, its
 * clock and its journal. In parallel workers they pass only if each test has a world of its own.
 */
import type { APIRequestContext } from '@playwright/test';
import type { PetstoreSandbox } from 'petstore-service/playwright';
import { expect, test } from './fixtures.ts';

const NOON = '2026-06-01T12:00:00Z';

/** Seeds `count` pets (generated ones for every third test), creates one, spends the free key's minute, moves the clock past it and reads the journal. */
async function aWholeWorld(petstore: PetstoreSandbox, request: APIRequestContext, count: number, generated: boolean): Promise<void> {
  // The clock stands still from here: the 61 requests cannot straddle a minute.
  expect(await petstore.clock.set(NOON)).toEqual(new Date(NOON));
  const seeded = await petstore.seed(
    generated ? { generate: { count, seed: count } } : Array.from({ length: count }, (_, i) => ({ name: `Pet ${i + 1}`, categoryId: i + 1 })),
  );
  expect(seeded.map((pet) => pet.id)).toEqual(Array.from({ length: count }, (_, i) => i + 1));

  const created = await request.post(`${petstore.url}/pets`, {
    headers: { authorization: `Bearer ${petstore.keys.pro}` },
    data: { name: 'Newcomer', categoryId: 9 },
  });
  expect(created.status()).toBe(201);
  expect((await created.json()).id).toBe(count + 1);

  const list = () => request.get(`${petstore.url}/pets?limit=1`, { headers: { authorization: `Bearer ${petstore.keys.free}` } });
  for (let i = 1; i <= 60; i++) expect((await list()).status(), `free request ${i} of 60`).toBe(200);
  const refused = await list();
  expect(refused.status()).toBe(429);
  expect(refused.headers()['retry-after']).toBe('60');

  expect(await petstore.clock.advance(60_000)).toEqual(new Date('2026-06-01T12:01:00Z'));
  expect((await list()).status()).toBe(200);

  await petstore.verify({ method: 'GET', path: '/v1/pets', status: 200, times: 61 });
  await petstore.verify({ method: 'GET', path: '/v1/pets', status: 429, times: 1 });
  await petstore.verify({ method: 'POST', path: '/v1/pets', status: 201, times: 1 });
  expect(await petstore.requests()).toHaveLength(63);
  expect(await petstore.pets()).toHaveLength(count + 1);
}

for (let count = 1; count <= 22; count++) {
  const generated = count % 3 === 0;
  test(`with ${count} pets seeded${generated ? ' (generated)' : ''}, the next pet is number ${count + 1} and the free key gets its 60 requests, a 429, and a new minute`, async ({
    petstore,
    request,
  }) => {
    await aWholeWorld(petstore, request, count, generated);
  });
}
