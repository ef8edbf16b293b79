/** GET /pets: one page of pets in id order, with an RFC 8288 `Link: rel="next"` while more match. */
import type { Reply } from '../errors.ts';
import { decodeCursor, DEFAULT_LIMIT, encodeCursor, ListQuerySchema, type Pet } from '../schemas.ts';
import { parseInput } from '../validation.ts';
import type { OperationContext } from './types.ts';

/** Lists pets, filtered by `status`, `limit` per page, continuing after `cursor`. */
export async function listPets({ url, options }: OperationContext): Promise<Reply> {
  const query = parseInput(ListQuerySchema, queryObject(url.searchParams), 'query');
  const limit = query.limit ?? DEFAULT_LIMIT;
  const after = query.cursor === undefined ? 0 : decodeCursor(query.cursor)!;
  // One extra pet tells whether a next page exists without a count query.
  const pets = await options.storage.list({ status: query.status, after, limit: limit + 1 });
  const page = pets.slice(0, limit);
  const json = petsJson(page);
  if (pets.length <= limit) return { status: 200, json };
  return { status: 200, json, headers: { Link: `<${nextPageUrl(url, page.at(-1)!.id)}>; rel="next"` } };
}

// Stored pets never change (the memory store freezes them), so each is serialized once. A store
// that returns fresh objects just misses the cache: entries go when the pets do.
const serialized = new WeakMap<Pet, string>();

/** The page as a JSON array, reusing each pet's serialization: JSON.stringify is most of a list. */
function petsJson(pets: readonly Pet[]): string {
  let json = '[';
  for (let i = 0; i < pets.length; i++) {
    const pet = pets[i]!;
    let text = serialized.get(pet);
    if (text === undefined) serialized.set(pet, (text = JSON.stringify(pet)));
    json += i === 0 ? text : `,${text}`;
  }
  return `${json}]`;
}

/** The query as an object; a repeated parameter becomes an array so the schema can refuse it. */
function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of ['limit', 'status', 'cursor']) {
    const values = params.getAll(name);
    if (values.length > 0) query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

function nextPageUrl(url: URL, lastId: number): string {
  const next = new URL(url);
  next.searchParams.set('cursor', encodeCursor(lastId));
  return next.href;
}
