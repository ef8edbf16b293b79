/** Queries over the journal, as the admin API takes them: filters from a query string, the exchanges they name, how many, and the JSON array of them as a stream. */
import { parseInput } from '../../src/index.ts';
import { matching, type RecordedExchange, type RequestMatcher } from './journal.ts';
import { timeOf } from '../clock/clock-schemas.ts';
import { JournalQuerySchema, type JournalQuery } from './journal-schemas.ts';
import { jsonChunks } from './json-chunks.ts';

/**
 * Which exchanges a journal query is about: `verify()`'s matcher (`path` exact), and the store's
 * time from which (`since`, epoch ms, inclusive) and how many of the newest (`limit`).
 *
 * @example
 * const filter: JournalFilter = { method: 'POST', status: 201, since: Date.parse('2026-01-01T00:00:00Z'), limit: 10 };
 */
export interface JournalFilter extends RequestMatcher {
  readonly path?: string;
  readonly since?: number;
  readonly limit?: number;
}

/** The query as an object, each name once; a repeated name becomes an array so the schema refuses it. */
function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/** `query`'s texts as the values they name. */
function filterOf({ method, path, status, since, limit }: JournalQuery): JournalFilter {
  return {
    ...(method !== undefined && { method }),
    ...(path !== undefined && { path }),
    ...(status !== undefined && { status: Number(status) }),
    ...(since !== undefined && { since: timeOf(since) }),
    ...(limit !== undefined && { limit: Number(limit) }),
  };
}

/**
 * The filter a query string asks for (`method`, `path`, `status`, `since`, `limit`, each optional),
 * or a 400 `invalid_request` naming each parameter that is unknown, repeated or not what it must be.
 *
 * @example
 * journalFilter(new URLSearchParams('method=post&limit=2')); // { method: 'post', limit: 2 }
 */
export function journalFilter(params: URLSearchParams): JournalFilter {
  return filterOf(parseInput(JournalQuerySchema, queryObject(params), 'query'));
}

/**
 * The exchanges `filter` names, oldest first: with `limit`, the newest that many of them.
 *
 * @example
 * exchangesMatching(controls.requests, { status: 500, limit: 1 }); // the last 500, in an array
 */
export function exchangesMatching(requests: readonly RecordedExchange[], filter: JournalFilter): RecordedExchange[] {
  const { since, limit } = filter;
  const isMatch = matching(filter);
  const found = requests.filter((exchange) => isMatch(exchange) && (since === undefined || Date.parse(exchange.time) >= since));
  return limit === undefined || found.length <= limit ? found : found.slice(found.length - limit);
}

/**
 * How many exchanges `filter` names (at most `limit`).
 *
 * @example
 * countMatching(controls.requests, { method: 'GET', path: '/v1/pets' }); // 3
 */
export function countMatching(requests: readonly RecordedExchange[], filter: JournalFilter): number {
  return exchangesMatching(requests, filter).length;
}

/**
 * `exchanges` as a JSON array, made a chunk at a time as the client reads it ({@link jsonChunks}):
 * a full journal (16 MiB and more) is never one string.
 *
 * @example
 * const reply: Reply = { status: 200, stream: () => exchangesJson(exchangesMatching(controls.requests, filter)) };
 */
export function exchangesJson(exchanges: readonly RecordedExchange[]): ReadableStream<Uint8Array> {
  return jsonChunks('[', exchanges, (exchange) => JSON.stringify(exchange), ']');
}
