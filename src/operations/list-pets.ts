/** GET /pets: one page of pets in id order, with an RFC 8288 `Link: rel="next"` while more match. */
import { ApiError } from '../response/api-error.ts';
import { errorReply, fixedError, utf8Length, type Reply } from '../response/reply.ts';
import type { Pet, PetStatus } from '../storage/pet.ts';
import type { PetStorage } from '../storage/pet-storage.ts';
import { decodeCursor, DEFAULT_LIMIT, encodeCursor, ListQuerySchema, type ListQuery } from './inputs.ts';
import type { OperationContext } from './types.ts';
import { apiUrl } from './urls.ts';
import { parseInput } from './validation.ts';

/** Lists pets, filtered by `status`, `limit` per page, continuing after `cursor`. */
export async function listPets({ query: params, base, settings }: OperationContext): Promise<Reply> {
  const query = parseQuery(queryObject(params), refusalsOf(settings));
  // A refused query is answered, not thrown: thrown before the first await, it would reject this
  // promise before its caller listens, and Node tracks each such rejection (BENCHMARKS.md, HTTP: the 400 row).
  if (query instanceof ApiError) return errorReply(query, ignore);
  const limit = query.limit ?? DEFAULT_LIMIT;
  const after = query.cursor === undefined ? 0 : await cursorPosition(query.cursor, query.status, settings.storage);
  // One extra pet tells whether a next page exists without a count query.
  const pets = await settings.storage.list({ status: query.status, after, limit: limit + 1 });
  const page = pets.slice(0, limit);
  const { json, jsonBytes } = petsJson(page);
  if (pets.length <= limit) return { status: 200, json, jsonBytes };
  return { status: 200, json, jsonBytes, headers: { Link: `<${nextPageUrl(base, query, page.at(-1)!.id)}>; rel="next"` } };
}

/** A pet's JSON and its length in UTF-8 bytes. */
interface Serialized {
  readonly text: string;
  readonly bytes: number;
}

// Stored pets never change (memory storage freezes them), so each is serialized once. A store
// that returns fresh objects just misses the cache: entries go when the pets do.
const serialized = new WeakMap<Pet, Serialized>();

/**
 * The page as a JSON array, reusing each pet's serialization (JSON.stringify is most of a list),
 * and its UTF-8 length: counted once per pet, not by scanning the page for its Content-Length on
 * every request, which showed in a GET's profile on node:http (BENCHMARKS.md, Findings).
 */
function petsJson(pets: readonly Pet[]): { json: string; jsonBytes: number } {
  let json = '[';
  // The brackets and the commas between pets.
  let jsonBytes = 1 + Math.max(pets.length, 1);
  for (let i = 0; i < pets.length; i++) {
    const pet = pets[i]!;
    let entry = serialized.get(pet);
    if (entry === undefined) {
      const text = JSON.stringify(pet);
      serialized.set(pet, (entry = { text, bytes: utf8Length(text) }));
    }
    json += i === 0 ? entry.text : `,${entry.text}`;
    jsonBytes += entry.bytes;
  }
  return { json: `${json}]`, jsonBytes };
}

/** Refused queries remembered: at most this many, then they are forgotten all at once. */
const REFUSALS_KEPT = 64;
/** The 400 of each refused query, by its parameters, for each store (its settings): see {@link parseQuery}. */
const refusalsByStore = new WeakMap<object, Map<string, ApiError>>();

/** The refusals one store keeps: its own, so no store's state reaches another's (nor one test's the next). */
function refusalsOf(settings: object): Map<string, ApiError> {
  let refusals = refusalsByStore.get(settings);
  if (refusals === undefined) refusalsByStore.set(settings, (refusals = new Map()));
  return refusals;
}

/**
 * The query checked by its schema, or the 400 refusing it. A refused one's 400 is kept, serialized, for the next time the
 * same parameters come: a client that sends a bad query sends it again and again, and valibot's
 * issues, the details and the body cost more than answering from the page (BENCHMARKS.md, HTTP: the 400 row).
 * The check depends on the parameters alone, so the same ones always get the same 400.
 */
function parseQuery(query: Record<string, string | string[]>, refusals: Map<string, ApiError>): ListQuery | ApiError {
  const key = refusalKey(query);
  const known = key === undefined ? undefined : refusals.get(key);
  if (known !== undefined) return known;
  try {
    return parseInput(ListQuerySchema, query, 'query');
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (key === undefined) return error;
    if (refusals.size >= REFUSALS_KEPT) refusals.clear();
    refusals.set(key, fixedError(error));
    return error;
  }
}

/** An error reply's report of an unexpected error: never called for an ApiError. */
const ignore = () => {};

/** The longest parameters whose refusal is kept: a long query is rare, and would hold memory. */
const KEY_CHARS = 256;

/**
 * The parameters as one text, each with its length in front (`1:0-1:-1:` for `limit=0`), so no
 * two queries share one; `undefined` for repeated parameters (rare: checked every time) and long ones.
 */
function refusalKey({ limit, status, cursor }: Record<string, string | string[]>): string | undefined {
  if (typeof limit === 'object' || typeof status === 'object' || typeof cursor === 'object') return undefined;
  const key = `${limit?.length ?? -1}:${limit ?? ''}${status?.length ?? -1}:${status ?? ''}${cursor?.length ?? -1}:${cursor ?? ''}`;
  return key.length <= KEY_CHARS ? key : undefined;
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

/**
 * The id a cursor continues after. A cursor names the last pet of the page it came from, so one
 * naming no pet, or a pet the `status` filter excludes, was forged or belongs to another list: 400.
 */
async function cursorPosition(cursor: string, status: PetStatus | undefined, storage: PetStorage): Promise<number> {
  const id = decodeCursor(cursor)!;
  const pet = await storage.get(id);
  if (pet && (status === undefined || pet.status === status)) return id;
  const message = 'is not a cursor from a Link header of this list';
  throw new ApiError({ status: 400, code: 'invalid_request', message: `Invalid query: cursor ${message}.`, details: [{ field: 'cursor', message }] });
}

/** The next page's URL: our own parameters only, so nothing else a client put in the query is echoed. */
function nextPageUrl(base: string, query: ListQuery, lastId: number): string {
  const next = new URLSearchParams();
  if (query.limit !== undefined) next.set('limit', String(query.limit));
  if (query.status !== undefined) next.set('status', query.status);
  next.set('cursor', encodeCursor(lastId));
  return apiUrl(base, '/pets', next);
}
