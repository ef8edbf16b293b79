/** GET /pets keeping the 400 of a refused query: which queries it answers from what it kept, and when it forgets them. */
import { describe, expect, it } from 'vitest';
import type { Reply } from '../response/reply.ts';
import { memoryPetStorage } from '../storage/memory-pet-storage.ts';
import { listPets } from './list-pets.ts';

/** A store's settings: each store keeps the refusals it has answered. */
function storeSettings() {
  return {
    storage: memoryPetStorage(),
    now: () => 0,
    maxBodyBytes: 1024,
    defaultStatus: undefined,
    getPetDeprecatedAt: new Date(0),
    getPetSunsetAt: new Date(0),
  };
}

/**
 * GET /v1/pets?{query}, the reply as the operation hands it to the host. A kept refusal is
 * answered with the reply made when it was first refused, the very object: a refusal checked anew
 * is a new one. That is how these tests tell what was kept, since both read the same on the wire.
 */
async function ask(query: string, store: ReturnType<typeof storeSettings>): Promise<Reply> {
  const request = new Request(`http://localhost/v1/pets?${query}`);
  const reply = await listPets({ request, body: undefined, query: new URLSearchParams(query), base: '/v1', params: {}, settings: store, keyId: 'k' });
  expect(reply.status).toBe(400);
  return reply;
}

/**
 * Queries whose parameters make a key of `chars` characters (the key spells each parameter's
 * length and text, a missing one as `-1:`), the one parameter given `n` characters long: 256 is
 * the longest kept. Each is refused: no limit, status or cursor is that long.
 */
const cursorOnly = (chars: number) => `cursor=${'A'.repeat(chars - 10)}`;
const statusOnly = (chars: number) => `status=${'x'.repeat(chars - 10)}`;
const limitOnly = (chars: number) => `limit=${'1'.repeat(chars - 10)}`;

describe('listPets answering a refused query again', () => {
  it('answers the same refused query with the reply it made the first time', async () => {
    const store = storeSettings();
    const first = await ask('limit=0', store);
    expect(await ask('limit=0', store)).toBe(first);
    expect(await ask('status=lost', store)).not.toBe(first);
    expect(await ask('limit=0', store)).toBe(first);
  });

  it('keeps each store its own refusals: another store checks the same query itself', async () => {
    const [one, other] = [storeSettings(), storeSettings()];
    const first = await ask('limit=0', one);
    expect(await ask('limit=0', other)).not.toBe(first);
    expect(await ask('limit=0', one)).toBe(first);
  });

  it.each([
    ['a cursor alone', cursorOnly],
    ['a status alone', statusOnly],
    ['a limit alone', limitOnly],
  ])('keeps the refusal of %s up to 256 characters of parameters, and checks one character more anew each time', async (_, query) => {
    const store = storeSettings();
    const longest = await ask(query(256), store);
    expect(await ask(query(256), store)).toBe(longest);
    const over = await ask(query(257), store);
    expect(await ask(query(257), store)).not.toBe(over);
    expect(await ask(query(257), store)).toEqual(over);
  });

  it('forgets every kept refusal when a 65th is refused, and not before, a query too long to keep not counted', async () => {
    const store = storeSettings();
    const first = await ask('limit=x1', store);
    await ask(cursorOnly(300), store);
    for (let i = 2; i <= 64; i++) await ask(`limit=x${i}`, store);
    expect(await ask('limit=x1', store)).toBe(first);
    const last = await ask('limit=x65', store);
    const again = await ask('limit=x1', store);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(await ask('limit=x65', store)).toBe(last);
  });
});
