/** GET /pets refusing its query: the same parameters get the same 400 every time, and other parameters their own, however they read alike; which refusals it keeps, and when it forgets them. */
import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../response/api-error.ts';
import { type Reply, wireReply } from '../response/reply.ts';
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
const settings = storeSettings();

/** GET /v1/pets?{query} asked of a store: the reply as the operation hands it to the host. */
async function replyTo(query: string, store = settings): Promise<Reply> {
  const request = new Request(`http://localhost/v1/pets?${query}`);
  return listPets({ request, body: undefined, query: new URLSearchParams(query), base: '/v1', params: {}, settings: store, keyId: 'k' });
}

/** GET /v1/pets?{query} asked of a store, as it goes on the wire. */
const ask = async (query: string, store = settings) => wireReply(await replyTo(query, store));

/** The status and body a client reads. */
async function answer(query: string, store: ReturnType<typeof storeSettings>) {
  const { status, body } = await ask(query, store);
  return { status, body: body === null ? null : (JSON.parse(body) as unknown) };
}

/** The 400's body for a query, as a client reads it. */
async function refusal(query: string) {
  const { status, body, headers } = await ask(query);
  if (status !== 400 || body === null) throw new Error(`${query} was answered ${status}, not refused`);
  expect(headers['Content-Type']).toBe('application/json');
  return JSON.parse(body) as ErrorBody;
}

describe('listPets refusing a query', () => {
  it('gives the same parameters the same 400 each time they come', async () => {
    const first = await refusal('limit=0');
    expect(first).toEqual({
      code: 'invalid_request',
      message: 'Invalid query: limit must be an integer from 1 to 100.',
      status: 400,
      details: [{ field: 'limit', message: 'must be an integer from 1 to 100' }],
    });
    expect(await refusal('limit=0')).toEqual(first);
    expect(await refusal('limit=0&other=1')).toEqual(first);
  });

  it('gives parameters that read alike when run together their own 400s', async () => {
    const limitWrong = await refusal('limit=1%262&status=sold');
    const statusWrong = await refusal('limit=1&status=2%26sold');
    expect(limitWrong.details).toEqual([{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
    expect(statusWrong.details?.map((detail) => detail.field)).toEqual(['status']);
    expect(await refusal('limit=1%262&status=sold')).toEqual(limitWrong);
    expect(await refusal('status=&limit=0')).not.toEqual(await refusal('limit=0'));
  });
});

/**
 * Two queries whose parameters run together into one text unless each one's length and text are
 * kept apart, or a repeated parameter is told from one value with a comma: the second is asked
 * right after the first was refused, and must get its own answer, not the first one's 400.
 */
const LOOK_ALIKES: readonly (readonly [first: string, then: string, why: string])[] = [
  ['limit=0', 'limit=5', 'a limit of the same length'],
  ['status=solx', 'status=sold', 'a status of the same length'],
  ['cursor=AAAAAA', 'cursor=cDE6MQ', 'a cursor of the same length'],
  ['limit=1&status=-1:', 'limit=13:', "the status's length read as the limit's text"],
  ['status=sold&cursor=-1:', 'status=sold3:', "the cursor's length read as the status's text"],
  ['status=10:aaaaaaa', 'limit=1&status=&cursor=aaaaaaa-1:', 'a missing limit read as one of length 1'],
  ['limit=a,', 'limit=a&limit=', 'a limit repeated'],
  ['status=a,', 'status=a&status=', 'a status repeated'],
  ['cursor=a,', 'cursor=a&cursor=', 'a cursor repeated'],
];

describe('listPets after refusing a query', () => {
  it.each(LOOK_ALIKES)('answers %s, then %s as if it came alone: %s', async (first, then) => {
    const [fresh, store] = [storeSettings(), storeSettings()];
    // Pet 1 in each, so that `cDE6MQ` (the cursor after it) names a page.
    for (const { storage } of [fresh, store]) await storage.create({ name: 'Rex', categoryId: 1 });
    const alone = await answer(then, fresh);
    const refused = await answer(first, store);
    expect(refused.status).toBe(400);
    expect(refused).not.toEqual(alone);
    expect(await answer(then, store)).toEqual(alone);
  });
});

/**
 * GET /v1/pets?{query}, the reply as the operation hands it to the host. A kept refusal is
 * answered with the reply made when it was first refused, the very object: a refusal checked anew
 * is a new one. That is how these tests tell what was kept, since both read the same on the wire.
 */
async function refusedReply(query: string, store: ReturnType<typeof storeSettings>): Promise<Reply> {
  const reply = await replyTo(query, store);
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
    const first = await refusedReply('limit=0', store);
    expect(await refusedReply('limit=0', store)).toBe(first);
    expect(await refusedReply('status=lost', store)).not.toBe(first);
    expect(await refusedReply('limit=0', store)).toBe(first);
  });

  it('keeps each store its own refusals: another store checks the same query itself', async () => {
    const [one, other] = [storeSettings(), storeSettings()];
    const first = await refusedReply('limit=0', one);
    expect(await refusedReply('limit=0', other)).not.toBe(first);
    expect(await refusedReply('limit=0', one)).toBe(first);
  });

  it.each([
    ['a cursor alone', cursorOnly],
    ['a status alone', statusOnly],
    ['a limit alone', limitOnly],
  ])('keeps the refusal of %s up to 256 characters of parameters, and checks one character more anew each time', async (_, query) => {
    const store = storeSettings();
    const longest = await refusedReply(query(256), store);
    expect(await refusedReply(query(256), store)).toBe(longest);
    const over = await refusedReply(query(257), store);
    expect(await refusedReply(query(257), store)).not.toBe(over);
    expect(await refusedReply(query(257), store)).toEqual(over);
  });

  it('forgets every kept refusal when a 65th is refused, and not before, a query too long to keep not counted', async () => {
    const store = storeSettings();
    const first = await refusedReply('limit=x1', store);
    await refusedReply(cursorOnly(300), store);
    for (let i = 2; i <= 64; i++) await refusedReply(`limit=x${i}`, store);
    expect(await refusedReply('limit=x1', store)).toBe(first);
    const last = await refusedReply('limit=x65', store);
    const again = await refusedReply('limit=x1', store);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(await refusedReply('limit=x65', store)).toBe(last);
  });
});
