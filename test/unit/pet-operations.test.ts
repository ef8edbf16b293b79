/** What a client reads from each operation, in process: pages and their links, creates and their replays, one pet until its route's sunset. */
import { describe, expect, it } from 'vitest';
import { createPetStore, type PetStoreOptions } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';

const KEY = 'operations-key-0123456789';
const OTHER_KEY = 'operations-other-key-0123';
const ORIGIN = 'http://localhost';
const NOW = Date.parse('2026-11-22T10:00:15Z');

/** A store holding `count` pets, every third one sold, the rest available. */
async function storeWith(count: number, options: PetStoreOptions = {}) {
  const storage = memoryPetStorage();
  for (let i = 1; i <= count; i++) await storage.create({ name: `pet ${i}`, categoryId: i, status: i % 3 === 0 ? 'sold' : 'available' });
  const petstore = createPetStore({ storage, apiKeys: { [KEY]: 'business', [OTHER_KEY]: 'business' }, now: () => NOW, onError: () => {}, ...options });
  const get = (path: string) => petstore.fetch(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
  return { petstore, get };
}

/** The ids of a page, and the path and query of its next link, if any. */
async function page(response: Response) {
  expect(response.status).toBe(200);
  const pets: { id: number }[] = await response.json();
  const link = response.headers.get('link');
  return { ids: pets.map((pet) => pet.id), next: link === null ? null : /^<(.*)>; rel="next"$/.exec(link)![1]! };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('GET /pets', () => {
  it('answers 20 pets by default with a link to the next page, and the last page without one', async () => {
    const { get } = await storeWith(25);
    const first = await page(await get('/v1/pets'));
    expect(first).toEqual({ ids: range(1, 20), next: expect.stringMatching(/^\/v1\/pets\?cursor=[\w-]+$/) });
    expect(await page(await get(first.next!))).toEqual({ ids: range(21, 25), next: null });
  });

  it('answers a page that holds exactly the rest without a next link', async () => {
    const { get } = await storeWith(20);
    expect(await page(await get('/v1/pets'))).toEqual({ ids: range(1, 20), next: null });
  });

  it('keeps limit and status in the next link and drops any other parameter', async () => {
    const { get } = await storeWith(12);
    const first = await page(await get('/v1/pets?status=available&limit=3&x=1'));
    expect(first.ids).toEqual([1, 2, 4]);
    expect(first.next).toMatch(/^\/v1\/pets\?limit=3&status=available&cursor=[\w-]+$/);
    expect((await page(await get(first.next!))).ids).toEqual([5, 7, 8]);
  });

  it('tells HEAD the length of the page GET sends, in UTF-8 bytes, for an empty page too', async () => {
    const storage = memoryPetStorage();
    await storage.create({ name: 'Ρεξ 🐕', categoryId: 1 });
    await storage.create({ name: 'Tom', categoryId: 2 });
    const petstore = createPetStore({ storage, apiKeys: { [KEY]: 'pro' } });
    const send = (method: string, path: string) => petstore.fetch(`${ORIGIN}${path}`, { method, headers: { authorization: `Bearer ${KEY}` } });
    for (const path of ['/v1/pets', '/v1/pets?limit=1', '/v1/pets?status=sold']) {
      const bytes = (await (await send('GET', path)).arrayBuffer()).byteLength;
      expect([path, (await send('HEAD', path)).headers.get('content-length')]).toEqual([path, String(bytes)]);
    }
  });

  it.each([
    ['limit=0', 'limit must be an integer from 1 to 100'],
    ['limit=101', 'limit must be an integer from 1 to 100'],
    ['limit=1.5', 'limit must be an integer from 1 to 100'],
    ['limit=1&limit=2', 'limit must appear at most once'],
    ['status=lost', 'status'],
    ['cursor=abc', 'cursor is not a cursor from a Link header of this API'],
  ])('answers %s with 400 naming the parameter', async (query, message) => {
    const { get } = await storeWith(3);
    const response = await get(`/v1/pets?${query}`);
    const body = await response.json();
    expect([response.status, body.code]).toEqual([400, 'invalid_request']);
    expect(body.message).toMatch(/^Invalid query: /);
    expect(body.message).toContain(message);
  });

  it('answers 400 to a cursor naming a pet that is not there, or that the status filter excludes', async () => {
    const { get } = await storeWith(6);
    const cursorAfter = async (path: string) => new URLSearchParams((await page(await get(path))).next!.split('?')[1]).get('cursor')!;
    const afterSold = await cursorAfter('/v1/pets?limit=3'); // pet 3 is sold
    const message = 'is not a cursor from a Link header of this list';
    const refused = await get(`/v1/pets?status=available&cursor=${afterSold}`);
    expect([refused.status, await refused.json()]).toEqual([
      400,
      { code: 'invalid_request', message: `Invalid query: cursor ${message}.`, status: 400, details: [{ field: 'cursor', message }] },
    ]);
    expect((await page(await get(`/v1/pets?status=sold&cursor=${afterSold}`))).ids).toEqual([6]);
    const { get: getFromEmpty } = await storeWith(0);
    expect((await getFromEmpty(`/v1/pets?cursor=${afterSold}`)).status).toBe(400);
  });
});

describe('POST /pets', () => {
  const post = (petstore: Awaited<ReturnType<typeof storeWith>>['petstore'], body: object, headers: Record<string, string> = {}, key = KEY) =>
    petstore.fetch(`${ORIGIN}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('answers 201 with the pet and its Location, with the store’s defaultStatus when the body names none', async () => {
    const { petstore } = await storeWith(2, { defaultStatus: 'pending' });
    const created = await post(petstore, { name: 'Rex', categoryId: 4 });
    expect([created.status, created.headers.get('location'), await created.json()]).toEqual([
      201,
      '/v1/pets/3',
      { id: 3, name: 'Rex', categoryId: 4, status: 'pending' },
    ]);
    expect(await (await post(petstore, { name: 'Tom', categoryId: 4, status: 'sold' })).json()).toMatchObject({ status: 'sold' });
  });

  it('answers a retry with the same Idempotency-Key and body with the first pet, marked replayed', async () => {
    const { petstore } = await storeWith(0);
    const first = await post(petstore, { name: 'Rex', categoryId: 1 }, { 'idempotency-key': 'order-1' });
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([201, null]);
    const again = await post(petstore, { name: 'Rex', categoryId: 1, extra: 'ignored' }, { 'idempotency-key': 'order-1' });
    expect([again.status, again.headers.get('location'), again.headers.get('idempotent-replayed'), await again.json()]).toEqual([
      201,
      '/v1/pets/1',
      'true',
      { id: 1, name: 'Rex', categoryId: 1 },
    ]);
  });

  it('answers 422 to an Idempotency-Key used with another pet, and lets another API key use the same one', async () => {
    const { petstore } = await storeWith(0);
    await post(petstore, { name: 'Rex', categoryId: 1 }, { 'idempotency-key': 'order-1' });
    for (const other of [
      { name: 'Tom', categoryId: 1 },
      { name: 'Rex', categoryId: 2 },
      { name: 'Rex', categoryId: 1, status: 'sold' },
    ]) {
      const reused = await post(petstore, other, { 'idempotency-key': 'order-1' });
      expect([reused.status, await reused.json()]).toEqual([
        422,
        { code: 'idempotency_key_reused', message: 'This Idempotency-Key was used with a different body in the last 24 hours.', status: 422 },
      ]);
    }
    const byOther = await post(petstore, { name: 'Tom', categoryId: 1 }, { 'idempotency-key': 'order-1' }, OTHER_KEY);
    expect([byOther.status, byOther.headers.get('location')]).toEqual([201, '/v1/pets/2']);
  });

  it('answers a body that is no NewPet with 400 naming the body and each field', async () => {
    const { petstore } = await storeWith(0);
    const response = await post(petstore, { categoryId: 'one' });
    const body = await response.json();
    expect(response.status).toBe(400);
    const details: { field: string; message: string }[] = body.details;
    expect(details.map((detail) => detail.field).sort()).toEqual(['categoryId', 'name']);
    expect(body.message).toBe(`Invalid body: ${details.map((detail) => `${detail.field} ${detail.message}`).join('; ')}.`);
  });

  it.each([
    ['a space', 'order 1'],
    ['256 characters', 'k'.repeat(256)],
    ['nothing', ''],
  ])('answers an Idempotency-Key of %s with 400', async (_, key) => {
    const { petstore } = await storeWith(0);
    const response = await post(petstore, { name: 'Rex', categoryId: 1 }, { 'idempotency-key': key });
    const body = await response.json();
    expect([response.status, body.message]).toEqual([400, 'Invalid header: Idempotency-Key must be 1 to 255 visible ASCII characters.']);
  });
});

describe('GET /pets/{petId}', () => {
  const sunset = new Date(NOW + 1);

  it('answers a pet with the deprecation headers, and 404 naming an id that is not there', async () => {
    const { get } = await storeWith(2, { getPetDeprecatedAt: new Date('2026-01-01T00:00:00Z'), getPetSunsetAt: sunset });
    const found = await get('/v1/pets/2');
    expect([found.status, found.headers.get('deprecation'), found.headers.get('sunset'), found.headers.get('link')]).toEqual([
      200,
      `@${Date.parse('2026-01-01T00:00:00Z') / 1000}`,
      sunset.toUTCString(),
      '</v1/pets>; rel="successor-version"',
    ]);
    expect(await found.json()).toEqual({ id: 2, name: 'pet 2', categoryId: 2, status: 'available' });
    const missing = await get('/v1/pets/9');
    expect([missing.status, await missing.json()]).toEqual([404, { code: 'not_found', message: 'Pet 9 does not exist.', status: 404 }]);
  });

  it('answers 410 from the sunset instant on, naming the day and the route to use', async () => {
    const { get } = await storeWith(2, { getPetSunsetAt: new Date(NOW) });
    const gone = await get('/v1/pets/1');
    expect([gone.status, await gone.json()]).toEqual([
      410,
      { code: 'gone', message: `GET /pets/{petId} was removed on ${new Date(NOW).toUTCString()}; use GET /pets with the status filter.`, status: 410 },
    ]);
  });

  it.each(['0', '01x', '12345678901234567'])('answers the id %s with 400', async (id) => {
    const { get } = await storeWith(2);
    const response = await get(`/v1/pets/${id}`);
    expect([response.status, (await response.json()).message]).toEqual([400, expect.stringMatching(/^Invalid path: petId /)]);
  });
});
