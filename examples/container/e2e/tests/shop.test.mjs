// @ts-check
/**
 * The app's end-to-end suite, in miniature (examples/container/e2e/compose.yaml): each test opens a
 * sandbox of the fake backend over its admin API, seeds it, and sends its selector to the app,
 * whose calls to the Pet Store that sandbox then answers; the sandbox is deleted after the test.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

const admin = `${process.env.PETSTORE_URL}/__admin`;
const asAdmin = { authorization: `Bearer ${process.env.PETSTORE_ADMIN_TOKEN}`, 'content-type': 'application/json' };

/**
 * A sandbox of its own for the test `t`, seeded with `pets`, deleted when the test ends.
 *
 * @param {import('node:test').TestContext} t
 * @param {{ name: string, categoryId: number }[]} pets
 * @returns {Promise<{ id: string, selector: string }>}
 */
async function openSandbox(t, pets) {
  const opened = await fetch(`${admin}/sandboxes`, { method: 'POST', headers: asAdmin, body: JSON.stringify(pets.length ? { seed: pets } : {}) });
  assert.equal(opened.status, 201);
  const sandbox = await opened.json();
  t.after(() => fetch(`${admin}/sandboxes/${sandbox.id}`, { method: 'DELETE', headers: asAdmin }));
  return sandbox;
}

/** The shop's page as the test's own sandbox stocks it. */
async function shopPage(/** @type {{ selector: string }} */ sandbox) {
  const page = await fetch(`${process.env.APP_URL}/`, { headers: { baggage: `petstore.sandbox=${sandbox.selector}` } });
  assert.equal(page.status, 200);
  return page.text();
}

test('the shop lists the pets its test seeded, and no other test sees them', async (t) => {
  const mine = await openSandbox(t, [
    { name: 'Rex', categoryId: 1 },
    { name: 'Tom', categoryId: 2 },
  ]);
  const theirs = await openSandbox(t, [{ name: 'Kit', categoryId: 3 }]);
  assert.equal(await shopPage(mine), 'Rex\nTom\n');
  assert.equal(await shopPage(theirs), 'Kit\n');
});

test("the sandbox's journal holds the app's call to the Pet Store", async (t) => {
  const sandbox = await openSandbox(t, []);
  await shopPage(sandbox);
  const journal = await (await fetch(`${admin}/sandboxes/${sandbox.id}/requests`, { headers: asAdmin })).json();
  assert.deepEqual(
    journal.map((/** @type {{ method: string, path: string, status: number }} */ entry) => `${entry.method} ${entry.path} ${entry.status}`),
    ['GET /v1/pets 200'],
  );
});
