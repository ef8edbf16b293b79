/** The journal of a fake backend: the exchanges it answered (secrets redacted, bodies and headers cut to their bounds), and the checks tests make on it. */
import { isConnectionReset, pathAndQuery, type Plan } from '../../src/index.ts';
import type { KeptBody } from './journal-body.ts';
import { REDACTED, type Redactor } from '../secrets/redaction.ts';

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
  /**
   * Request headers with lower-case names; `authorization` keeps its scheme only (`Bearer
   * [redacted]`). At most {@link HEADER_BOUNDS}' count, each value cut at its length, in the order
   * the request's Headers lists them.
   */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** Present, and true, when headers were left out or values cut to {@link HEADER_BOUNDS}. */
  readonly requestHeadersTruncated?: true;
  /** The body as text, its first `maxBodyBytes` bytes at most; `''` for a refused request (401, 413, 415, 429), whose body is never read. */
  readonly requestBody: string;
  /** Present, and true, when the body went on past what `requestBody` holds: `maxBodyBytes`, or nothing for a refused request. */
  readonly requestBodyTruncated?: true;
  /** The status answered; `0` when a network fault reset or hung the request instead. */
  readonly status: number;
  /**
   * The plan of the key the request was counted against (`enterprise`: a key with quotas of its
   * own); absent when it was counted against none (no key or a wrong one, a public path, a probe).
   */
  readonly plan?: PlanName;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly responseBody: string;
  /** Real milliseconds from arrival to answer. */
  readonly ms: number;
  /** The store's clock when it was answered, as an ISO date. */
  readonly time: string;
}

/**
 * A plan as the journal names it: a named plan, or `enterprise` for a key with quotas of its own.
 *
 * @example
 * const plan: PlanName = 'enterprise'; // { perMinute: 100_000, perDay: 10_000_000 }
 */
export type PlanName = 'free' | 'pro' | 'business' | 'enterprise';

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

/**
 * The answers that refuse a request unread (no key or a wrong one, over quota or banned, a body too
 * large or not JSON): the journal keeps no body of them and fewer headers. A flood of them is what
 * a caller without a key can send, and it must not fill the journal's budget with its uploads.
 *
 * @example
 * REFUSED_STATUSES.has(429); // true
 */
export const REFUSED_STATUSES: ReadonlySet<number> = new Set([401, 413, 415, 429]);

/**
 * How many request headers an exchange keeps, each value's most UTF-16 units, and the most units of
 * names and values in all; a refused request's (see {@link REFUSED_STATUSES}) keeps fewer.
 *
 * @example
 * HEADER_BOUNDS.refused; // { count: 16, value: 256, total: 2048 }
 */
export const HEADER_BOUNDS = {
  answered: { count: 64, value: 1_024, total: 8_192 },
  refused: { count: 16, value: 256, total: 2_048 },
} as const;

/**
 * The first `units` of `text` as a string of its own: V8 makes a slice of 13 or more units a view of
 * the whole text, and a journal of cut values would hold every header they were cut from. The
 * concatenation is flattened into a new string when it is sliced, and the slice views that copy.
 */
const cutCopy = (text: string, units: number) => `${text.slice(0, units)} `.slice(0, -1);

/** A header record within `bounds`, in its order: later headers left out, long values cut; `cut` when anything was. */
function boundedHeaders(record: Record<string, string>, bounds: (typeof HEADER_BOUNDS)[keyof typeof HEADER_BOUNDS]) {
  const headers: Record<string, string> = {};
  let count = 0;
  let units = 0;
  let cut = false;
  for (const name in record) {
    // Cut after redaction: a secret cut here was already replaced whole, so none of it is left.
    const value = record[name]!.length > bounds.value ? ((cut = true), cutCopy(record[name]!, bounds.value)) : record[name]!;
    if (count === bounds.count || units + name.length + value.length > bounds.total) return { headers, cut: true };
    headers[name] = value;
    count++;
    units += name.length + value.length;
  }
  return { headers, cut };
}

/** What a journal entry is made of: the request (before it is read), the body kept of it (none for a refused one), its answer, the plan it was counted against, the real ms it took, the store's time and the redaction of its secrets. */
export interface ExchangeParts {
  readonly request: Request;
  readonly requestBody: KeptBody;
  readonly response: Response;
  readonly plan?: Plan | undefined;
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
export async function recordedExchange({ request, requestBody, response, plan, ms, now, redact }: ExchangeParts): Promise<RecordedExchange> {
  const { path, query } = pathAndQuery(request.url);
  const failed = isConnectionReset(response);
  const bounds = !failed && REFUSED_STATUSES.has(response.status) ? HEADER_BOUNDS.refused : HEADER_BOUNDS.answered;
  const { headers, cut } = boundedHeaders(requestHeaderRecord(request.headers, redact), bounds);
  return {
    method: request.method,
    path: redact(path),
    query: redact(query),
    url: redact(request.url),
    requestHeaders: headers,
    ...(cut && { requestHeadersTruncated: true }),
    // A body cut at the limit may end inside a secret: its start there goes too.
    requestBody: requestBody.truncated ? redact.cutShort(requestBody.text) : redact(requestBody.text),
    ...(requestBody.truncated && { requestBodyTruncated: true }),
    status: failed ? 0 : response.status,
    ...(plan !== undefined && { plan: typeof plan === 'string' ? plan : 'enterprise' }),
    responseHeaders: failed ? {} : headerRecord(response.headers, redact),
    responseBody: failed ? '' : redact(await response.clone().text()),
    ms: Math.round(ms * 100) / 100,
    time: new Date(now).toISOString(),
  };
}
