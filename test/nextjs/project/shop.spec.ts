/**
 * Twenty tests of the Next.js pet shop, each in a sandbox of its own: it seeds its pets, finds
 * exactly them on the page the shop renders on its server, adds one through the shop's form, and
 * finds the shop's calls in its own journal. The shop calls the API with one key for the whole
 * process; only the selector its pages carry, forwarded by @vercel/otel, keeps the tests apart.
 */
import { expect, test } from 'petstore-service/playwright';

for (let count = 1; count <= 20; count++) {
  test(`with ${count} pets seeded, the shop shows exactly those, adds number ${count + 1}, and its calls are in the test's journal`, async ({
    page,
    petstore,
  }) => {
    const names = Array.from({ length: count }, (_, i) => `Pet ${count}.${i + 1}`);
    await petstore.seed(names.map((name, i) => ({ name, categoryId: i + 1 })));

    // Rendered on the server: once loaded, the page holds the list (and a page of another world fails here at once).
    await page.goto('/');
    expect(await page.locator('#pets li').allTextContents()).toEqual(names);

    await page.getByLabel('Name').fill(`Newcomer ${count}`);
    await page.getByRole('button', { name: 'Add pet' }).click();
    await expect(page.locator('#pets li')).toHaveText([...names, `Newcomer ${count}`]);
    await expect(page.locator('#pets li').last()).toHaveAttribute('data-id', String(count + 1));

    // The shop's three calls (a list, the create, the list after it) and nothing else's.
    const journal = await petstore.requests();
    expect(journal.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual(['GET /v1/pets 200', 'POST /v1/pets 201', 'GET /v1/pets 200']);
    // The selector is a secret: the journal keeps the baggage it came in, without it.
    expect(JSON.stringify(journal)).not.toContain(petstore.selector);
  });
}
