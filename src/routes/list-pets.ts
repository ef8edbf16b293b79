/** GET /pets: one page of pets in id order, with an RFC 8288 `Link: rel="next"` while more match. */
import { jsonResponse } from '../errors.ts';
import { decodeCursor, DEFAULT_LIMIT, encodeCursor, ListQuerySchema } from '../schemas.ts';
import { parseInput } from '../validation.ts';
import type { OperationContext } from './types.ts';

/** Lists pets, filtered by `status`, `limit` per page, continuing after `cursor`. */
export async function listPets({ url, options }: OperationContext): Promise<Response> {
  const query = parseInput(ListQuerySchema, queryObject(url.searchParams), 'query');
  const limit = query.limit ?? DEFAULT_LIMIT;
  const after = query.cursor === undefined ? 0 : decodeCursor(query.cursor)!;
  // One extra pet tells whether a next page exists without a count query.
  const pets = await options.storage.list({ status: query.status, after, limit: limit + 1 });
  const page = pets.slice(0, limit);
  const headers: Record<string, string> = {};
  if (pets.length > limit) headers.Link = `<${nextPageUrl(url, page.at(-1)!.id)}>; rel="next"`;
  return jsonResponse(page, 200, headers);
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
