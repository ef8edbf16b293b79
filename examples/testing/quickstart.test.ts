import { expect, test } from 'vitest';
import { createTestPetStore } from 'petstore-service/testing';

test('the free plan allows 60 requests a minute, then 429 until the next minute', async () => {
  const petstore = createTestPetStore();
  await petstore.seed([
    { name: 'Rex', categoryId: 1 },
    { name: 'Tom', categoryId: 2 },
    { name: 'Kit', categoryId: 3 },
  ]);
  const list = () => petstore.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${petstore.keys.free}` } });
  expect(await (await list()).json()).toHaveLength(3);
  for (let i = 1; i < 60; i++) await list();
  const limited = await list();
  expect(limited.status).toBe(429);
  petstore.clock.advance(Number(limited.headers.get('retry-after')) * 1000);
  expect(await (await list()).json()).toHaveLength(3);
});
