/** The journal of a fake backend: every exchange it answered (keys redacted), and the checks tests make on it. */
import { isConnectionReset } from '../src/index.ts';

/**
 * One request the store received and what it answered. The same shape in `store.requests` and in
 * `GET /__admin/requests`.
 *
 * @example
 * const created: RecordedExchange | undefined = store.requests.find(matching({ method: 'POST', status: 201 }));
 */
export interface RecordedExchange {
  readonly method: string;
  /** The path as sent, mount prefix and base path included (`/v1/pets`). */
  readonly path: string;
  /** The query without `?` (`limit=7`), `''` for none. */
  readonly query: string;
  readonly url: string;
  /** Request headers with lower-case names; `authorization` keeps its scheme only (`Bearer [redacted]`). */
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody: string;
  /** The status answered; `0` when a network fault reset or hung the request instead. */
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly responseBody: string;
  /** Real milliseconds from arrival to answer. */
  readonly ms: number;
  /** The store's clock when it was answered, as an ISO date. */
  readonly time: string;
}

/**
 * Which exchanges a check is about: each given field must equal the exchange's (`method`
 * case-insensitively); `path` may be a RegExp.
 *
 * @example
 * const matcher: RequestMatcher = { method: 'POST', path: '/v1/pets', status: 201 };
 */
export interface RequestMatcher {
  readonly method?: string;
  readonly path?: string | RegExp;
  readonly status?: number;
}

/**
 * A predicate for `requests.find`, `filter`, `some` and `every`: the exchanges `matcher` names.
 *
 * @example
 * const creates = store.requests.filter(matching({ method: 'POST', path: '/v1/pets' }));
 */
export function matching(matcher: RequestMatcher): (exchange: RecordedExchange) => boolean {
  const method = matcher.method?.toUpperCase();
  const { path, status } = matcher;
  return (exchange) =>
    (method === undefined || exchange.method === method) &&
    (status === undefined || exchange.status === status) &&
    (path === undefined || (typeof path === 'string' ? exchange.path === path : path.test(exchange.path)));
}

/** A matcher and how many exchanges it must name. */
export interface Verification extends RequestMatcher {
  /** Exactly this many. */
  readonly times: number;
}

/** Throws an Error whose message shows the expectation and every recorded exchange, matching ones marked, unless `times` of them match. */
export function verifyRequests(requests: readonly RecordedExchange[], verification: Verification): void {
  const { times, ...matcher } = verification;
  if (!Number.isSafeInteger(times) || times < 0) throw new TypeError('verify: times must be a whole number, 0 or more');
  const isMatch = matching(matcher);
  const found = requests.filter(isMatch).length;
  if (found === times) return;
  const wanted = [matcher.method?.toUpperCase() ?? '*', matcher.path === undefined ? '*' : String(matcher.path), matcher.status ?? '*'].join(' ');
  const lines = requests.map((r) => `  ${isMatch(r) ? '+' : ' '} ${r.method} ${r.path}${r.query ? `?${r.query}` : ''} -> ${r.status}`);
  throw new Error(
    [
      `Expected ${times} request(s) matching ${wanted}, got ${found}.`,
      `Recorded (${requests.length}, + marks a match):`,
      ...(lines.length ? lines : ['  (none)']),
    ].join('\n'),
  );
}

/** Headers as a record with lower-case names, whatever case the Headers implementation keeps. */
function lowercased(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name.toLowerCase()] = value));
  return record;
}

/** Request headers for the journal, with the credential replaced (its scheme kept, for assertions). */
function redacted(headers: Headers): Record<string, string> {
  const record = lowercased(headers);
  if (record.authorization !== undefined) {
    const scheme = /^(\S+)\s/.exec(record.authorization)?.[1];
    record.authorization = scheme ? `${scheme} [redacted]` : '[redacted]';
  }
  return record;
}

/** The scheme and authority in front of a URL's path: what a URL that does not parse is cut at. */
const ORIGIN = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

/**
 * The path and query (without `?`) of `url`, also when it does not parse: a Request's URL is made
 * from the client's Host (`example.test:99999`), which the edge answers with a 400, and reading it
 * here must not turn that answer into a 500.
 *
 * @example
 * pathAndQuery('http://example.test:99999/v1/pets?limit=2'); // { path: '/v1/pets', query: 'limit=2' }
 */
export function pathAndQuery(url: string): { path: string; query: string } {
  try {
    const { pathname, search } = new URL(url);
    return { path: pathname, query: search.slice(1) };
  } catch {
    // Cut by hand, below; not URL.canParse, which older browsers running the test kit lack.
  }
  const rest = url.replace(ORIGIN, '').replace(/#.*$/s, '');
  const question = rest.indexOf('?');
  const path = question === -1 ? rest : rest.slice(0, question);
  return { path: path || '/', query: question === -1 ? '' : rest.slice(question + 1) };
}

/** What a journal entry is made of: the request (before it is read), its answer, the real ms it took and the store's time. */
export interface ExchangeParts {
  readonly request: Request;
  readonly requestBody: string;
  readonly response: Response;
  readonly ms: number;
  readonly now: number;
}

/** The journal entry for one exchange; reads a clone of the response body, never the body itself. */
export async function recordedExchange({ request, requestBody, response, ms, now }: ExchangeParts): Promise<RecordedExchange> {
  const { path, query } = pathAndQuery(request.url);
  const failed = isConnectionReset(response);
  return {
    method: request.method,
    path,
    query,
    url: request.url,
    requestHeaders: redacted(request.headers),
    requestBody,
    status: failed ? 0 : response.status,
    responseHeaders: failed ? {} : lowercased(response.headers),
    responseBody: failed ? '' : await response.clone().text(),
    ms: Math.round(ms * 100) / 100,
    time: new Date(now).toISOString(),
  };
}
