/**
 * Twenty-four shoppers at once, each with pets of its own: the shop's page lists exactly this test's
 * pets, a pet added through its form joins them, and this test's journal holds the shop's calls. The
 * shop calls the API from its server with one key; only the selector in each page's baggage, which
 * OpenTelemetry forwards, keeps the tests apart.
 */
import type { Page } from '@playwright/test';
import { expect, type PetstoreSandbox, test } from 'petstore-service/playwright';

const KINDS = ['Cat', 'Dog', 'Finch', 'Gecko', 'Hamster'];

/** Test `n`'s own pets: 1 to 5 of them, named after the test. */
const petsOf = (n: number) => KINDS.slice(0, (n % KINDS.length) + 1).map((kind) => `${kind} of shopper ${n}`);

/** Seeds test `n`'s pets, checks the page lists them and nothing else, adds one through the form and checks it joins them; resolves to every name listed. */
async function shop(n: number, petstore: PetstoreSandbox, page: Page): Promise<string[]> {
  const names = petsOf(n);
  await petstore.seed(names.map((name, i) => ({ name, categoryId: i + 1 })));

  await page.goto('/');
  await expect(page.locator('#pets li')).toHaveText(names);

  const newcomer = `Newcomer of shopper ${n}`;
  await page.getByLabel('Name').fill(newcomer);
  await page.getByRole('button', { name: 'Add pet' }).click();
  await expect(page.locator('#pets li')).toHaveText([...names, newcomer]);
  expect((await petstore.pets()).map((pet) => pet.name)).toEqual([...names, newcomer]);
  return [...names, newcomer];
}

/** The shop's calls, in this test's journal alone: a list, a create, and the list the redirect shows. */
async function journalHoldsTheShopsCalls(petstore: PetstoreSandbox, lists = 2): Promise<void> {
  await petstore.verify({ method: 'GET', path: '/v1/pets', status: 200, times: lists });
  await petstore.verify({ method: 'POST', path: '/v1/pets', status: 201, times: 1 });
  expect(await petstore.requests()).toHaveLength(lists + 1);
}

for (let n = 1; n <= 16; n++) {
  test(`shopper ${n} sees only its own ${petsOf(n).length} pet(s), adds one through the form, and finds the shop's calls in its journal`, async ({
    petstore,
    page,
  }) => {
    await shop(n, petstore, page);
    await journalHoldsTheShopsCalls(petstore);
  });
}

for (let n = 17; n <= 20; n++) {
  test(`shopper ${n} reads the page through page.request too, and sees only its own pets there`, async ({ petstore, page }) => {
    await petstore.seed(petsOf(n).map((name) => ({ name, categoryId: n })));
    const html = await (await page.request.get('/')).text();
    expect([...html.matchAll(/<li data-id="\d+">([^<]*)<\/li>/g)].map((match) => match[1])).toEqual(petsOf(n));
    await petstore.reset();
    await shop(n, petstore, page);
    await journalHoldsTheShopsCalls(petstore);
  });
}

test.describe('with baggage of its own in extraHTTPHeaders', () => {
  // Another member the app's telemetry carries, and a stale selector the fixture replaces.
  test.use({ extraHTTPHeaders: { Baggage: 'tenant=acme, petstore.sandbox=pssel_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });

  for (let n = 21; n <= 24; n++) {
    test(`shopper ${n} keeps its own baggage member beside the selector, and still sees only its own pets`, async ({ petstore, page }) => {
      await shop(n, petstore, page);
      await journalHoldsTheShopsCalls(petstore);
      for (const exchange of await petstore.requests()) expect(exchange.requestHeaders.baggage).toContain('tenant=acme');
    });
  }
});
