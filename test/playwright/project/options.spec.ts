/** The fixture configured by `test.use` (the server's root, not its API URL), a control the server refuses, and a failed test's sandbox. */
import { expect, test } from './fixtures.ts';

test.use({ petstoreUrl: new URL(process.env.PETSTORE_URL || 'http://petstore.invalid').origin, petstoreAdminToken: process.env.PETSTORE_ADMIN_TOKEN });

test('a fault injected into its world hits its next list, and no other test', async ({ petstore, request }) => {
  const id = await petstore.faults.inject({ status: 503, method: 'GET', path: '/v1/pets', retryAfterSeconds: 5 });
  expect(await petstore.faults.list()).toEqual([expect.objectContaining({ id, status: 503, left: 1 })]);
  const failed = await request.get(`${petstore.url}/pets`, { headers: { authorization: `Bearer ${petstore.keys.business}` } });
  expect([failed.status(), failed.headers()['retry-after']]).toEqual([503, '5']);
  expect(await petstore.faults.list()).toEqual([]);
  await petstore.verify({ method: 'GET', path: '/v1/pets', status: 503, times: 1 });
});

test('a seed the server refuses rejects with its JSON error', async ({ petstore }) => {
  await expect(petstore.seed([{ name: 7, categoryId: 1 }])).rejects.toThrow(/answered 400: \{"code":"invalid_request"/);
  expect(await petstore.pets()).toEqual([]);
});

test('a test that fails has its sandbox deleted all the same', async ({ petstore }) => {
  test.fail(true, 'fails on purpose: test/playwright/playwright.test.ts then finds no sandbox left');
  await petstore.seed([{ name: 'Left behind?', categoryId: 1 }]);
  expect(await petstore.pets()).toEqual([]);
});
