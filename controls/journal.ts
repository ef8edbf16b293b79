/** The journal of a fake backend: the exchanges it answered (a ring of the newest, secrets redacted, bodies cut at the body limit), and the checks tests make on it. */
import { isConnectionReset } from '../src/index.ts';
import type { KeptBody } from './journal-body.ts';
import { REDACTED, type Redactor } from './redaction.ts';

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
  /** The body as text, its first `maxBodyBytes` bytes at most. */
  readonly requestBody: string;
  /** Present, and true, when the body went on past `maxBodyBytes`: `requestBody` is its start. */
  readonly requestBodyTruncated?: true;
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

/**
 * Why `requests` fail `verification`: the expectation and every recorded exchange, matching ones
 * marked `+`; `undefined` when exactly `times` of them match. A TypeError for a `times` that is not
 * a whole number, 0 or more.
 *
 * @example
 * verificationFailure(store.requests, { method: 'POST', times: 1 }); // 'Expected 1 request(s) matching POST * *, got 0.\n…'
 */
export function verificationFailure(requests: readonly RecordedExchange[], verification: Verification): string | undefined {
  const { times, ...matcher } = verification;
  if (!Number.isSafeInteger(times) || times < 0) throw new TypeError('verify: times must be a whole number, 0 or more');
  const isMatch = matching(matcher);
  const found = requests.filter(isMatch).length;
  if (found === times) return undefined;
  const wanted = [matcher.method?.toUpperCase() ?? '*', matcher.path === undefined ? '*' : String(matcher.path), matcher.status ?? '*'].join(' ');
  const lines = requests.map((r) => `  ${isMatch(r) ? '+' : ' '} ${r.method} ${r.path}${r.query ? `?${r.query}` : ''} -> ${r.status}`);
  return [
    `Expected ${times} request(s) matching ${wanted}, got ${found}.`,
    `Recorded (${requests.length}, + marks a match):`,
    ...(lines.length ? lines : ['  (none)']),
  ].join('\n');
}

/**
 * Throws an Error whose message shows the expectation and every recorded exchange, matching ones
 * marked, unless `times` of them match.
 *
 * @example
 * verifyRequests(store.requests, { method: 'POST', path: '/v1/pets', times: 1 });
 */
export function verifyRequests(requests: readonly RecordedExchange[], verification: Verification): void {
  const failure = verificationFailure(requests, verification);
  if (failure !== undefined) throw new Error(failure);
}

/** Headers as a record with lower-case names, whatever case the Headers implementation keeps, each name and value redacted (a key sent as a header's name too). */
function headerRecord(headers: Headers, redact: (text: string) => string): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[redact(name.toLowerCase())] = redact(value)));
  return record;
}

/** Request headers for the journal, secrets redacted and the credential replaced (its scheme kept, for assertions). */
function requestHeaderRecord(headers: Headers, redact: (text: string) => string): Record<string, string> {
  const record = headerRecord(headers, redact);
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const scheme = /^(\S+)\s/.exec(authorization)?.[1];
    record.authorization = scheme ? `${redact(scheme)} ${REDACTED}` : REDACTED;
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

/** What a journal entry is made of: the request (before it is read), the body kept of it, its answer, the real ms it took, the store's time and the redaction of its secrets. */
export interface ExchangeParts {
  readonly request: Request;
  readonly requestBody: KeptBody;
  readonly response: Response;
  readonly ms: number;
  readonly now: number;
  readonly redact: Redactor;
}

/**
 * The journal entry for one exchange, every secret in it redacted; reads a clone of the response
 * body, never the body itself.
 *
 * @example
 * const exchange = await recordedExchange({ request, requestBody: await tap.kept(), response, ms, now: clock.now(), redact });
 */
export async function recordedExchange({ request, requestBody, response, ms, now, redact }: ExchangeParts): Promise<RecordedExchange> {
  const { path, query } = pathAndQuery(request.url);
  const failed = isConnectionReset(response);
  return {
    method: request.method,
    path: redact(path),
    query: redact(query),
    url: redact(request.url),
    requestHeaders: requestHeaderRecord(request.headers, redact),
    // A body cut at the limit may end inside a secret: its start there goes too.
    requestBody: requestBody.truncated ? redact.cutShort(requestBody.text) : redact(requestBody.text),
    ...(requestBody.truncated && { requestBodyTruncated: true }),
    status: failed ? 0 : response.status,
    responseHeaders: failed ? {} : headerRecord(response.headers, redact),
    responseBody: failed ? '' : redact(await response.clone().text()),
    ms: Math.round(ms * 100) / 100,
    time: new Date(now).toISOString(),
  };
}

/**
 * The journal's memory: the newest `size` exchanges, the oldest dropped to make room.
 *
 * @example
 * const journal = createJournal(10_000);
 * journal.record(exchange);
 * journal.entries().length; // 1
 */
export interface Journal {
  record(exchange: RecordedExchange): void;
  /** The exchanges kept, oldest first: a copy, unchanged by later ones. */
  entries(): RecordedExchange[];
  clear(): void;
}

/**
 * A {@link Journal} of at most `size` exchanges: a ring, so a full one costs the same per
 * exchange as an empty one (an array's shift moved every entry: ~140 µs at 100,000).
 *
 * @example
 * const journal = createJournal(2);
 */
export function createJournal(size: number): Journal {
  if (!Number.isSafeInteger(size) || size < 1) throw new TypeError(`journalSize must be a whole number, 1 or more, got ${String(size)}`);
  let ring: RecordedExchange[] = [];
  // Where the oldest is once the ring is full, and so where the next one goes.
  let oldest = 0;
  return {
    record(exchange) {
      if (ring.length < size) return void ring.push(exchange);
      ring[oldest] = exchange;
      oldest = (oldest + 1) % size;
    },
    entries: () => (oldest === 0 ? ring.slice() : [...ring.slice(oldest), ...ring.slice(0, oldest)]),
    clear() {
      ring = [];
      oldest = 0;
    },
  };
}
