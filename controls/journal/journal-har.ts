/**
 * The journal as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the archive Chrome
 * DevTools, Playwright's routeFromHAR, Charles and k6 read: an entry per exchange, made from what
 * the journal kept, so every secret it redacted stays redacted. No valibot and no core but the
 * reason phrases: the page's module (petstore-service/browser) builds it too.
 */
import { reasonPhrase } from '../../src/index.ts';
import type { RecordedExchange } from './journal.ts';
import { jsonChunks } from './json-chunks.ts';

/** A header, query parameter or cookie of a HAR entry. */
interface HarPair {
  readonly name: string;
  readonly value: string;
}

/** The request of a {@link HarEntry}. */
interface HarRequest {
  readonly method: string;
  /** Absolute, as the journal keeps it (secrets redacted). */
  readonly url: string;
  readonly httpVersion: string;
  readonly cookies: readonly HarPair[];
  /** Lower-case names, as the journal keeps them; `authorization` is `Bearer [redacted]`. */
  readonly headers: readonly HarPair[];
  /** The query's parameters, decoded. */
  readonly queryString: readonly HarPair[];
  /** The body the journal kept; none for a request without one, or refused unread (401, 413, 415, 429). */
  readonly postData?: {
    readonly mimeType: string;
    readonly text: string;
    /** Present, and true, when the body went on past what `text` holds (the body limit). */
    readonly _truncated?: true;
  };
  /** -1: unknown. */
  readonly headersSize: number;
  /** 0 without a body, else -1: the journal keeps the body redacted, not its size. */
  readonly bodySize: number;
  /** Present, and true, when the journal left headers out or cut values (its header bounds). */
  readonly _headersTruncated?: true;
}

/** The response of a {@link HarEntry}. */
interface HarResponse {
  /** 0 when a network fault gave no answer (then `_error` says so, as Chrome writes it). */
  readonly status: number;
  readonly statusText: string;
  readonly httpVersion: string;
  readonly cookies: readonly HarPair[];
  readonly headers: readonly HarPair[];
  /** The body as text (none for a network fault), its `size` in UTF-8 bytes. */
  readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string };
  /** The `Location` header, `''` for none. */
  readonly redirectURL: string;
  readonly headersSize: number;
  readonly bodySize: number;
  /** Present for a network fault (status 0): `net::ERR_EMPTY_RESPONSE`. */
  readonly _error?: string;
}

/**
 * One exchange of the journal in a {@link Har}.
 *
 * @example
 * const created: HarEntry | undefined = har.log.entries.find((entry) => entry.response.status === 201);
 */
export interface HarEntry {
  /** When the request arrived by the store's clock: the time it was answered less its `time`. */
  readonly startedDateTime: string;
  /** Real milliseconds from arrival to answer, all of them `timings.wait`. */
  readonly time: number;
  readonly request: HarRequest;
  readonly response: HarResponse;
  readonly cache: Readonly<Record<string, never>>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
}

/**
 * A journal as HAR 1.2, the fields petstore-service writes: entries oldest first. Save it as JSON
 * to open it in Chrome DevTools (Network, Import HAR) or replay it with Playwright's `routeFromHAR`.
 *
 * @example
 * const har: Har = petstore.har({ method: 'POST' });
 * writeFileSync('requests.har', JSON.stringify(har));
 */
export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: 'petstore-service'; readonly version: string };
    readonly entries: readonly HarEntry[];
  };
}

declare const __PETSTORE_VERSION__: string | undefined;
/** The package's version, which tsup writes in at build time; `typeof`, so the unbuilt sources (tests) do not throw on the missing name. */
const CREATOR = { name: 'petstore-service', version: typeof __PETSTORE_VERSION__ === 'string' ? __PETSTORE_VERSION__ : 'unbuilt' } as const;

/** What every request and answer says of its HTTP: the command and serve() speak HTTP/1.1, and an in-process request has none of its own. */
const HTTP_VERSION = 'HTTP/1.1';

/** A network fault's answer, as Chrome writes a request the server closed without a word. */
const NO_ANSWER: HarResponse = {
  status: 0,
  statusText: '',
  httpVersion: '',
  cookies: [],
  headers: [],
  content: { size: 0, mimeType: 'x-unknown' },
  redirectURL: '',
  headersSize: -1,
  bodySize: -1,
  _error: 'net::ERR_EMPTY_RESPONSE',
};

const ENCODER = new TextEncoder();

const pairs = (record: Readonly<Record<string, string>>): HarPair[] => Object.entries(record).map(([name, value]) => ({ name, value }));

/** When `exchange` arrived by the store's clock; its answer's time when that would leave the Date range. */
function startedAt({ time, ms }: RecordedExchange): string {
  const started = new Date(Date.parse(time) - ms);
  return Number.isNaN(started.getTime()) ? time : started.toISOString();
}

/** `exchange`'s request as HAR has it. */
function harRequest(exchange: RecordedExchange): HarRequest {
  const { requestBody: text, requestBodyTruncated: truncated, requestHeaders } = exchange;
  return {
    method: exchange.method,
    url: exchange.url,
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: pairs(requestHeaders),
    // Decoding leaves no secret to find: the journal redacted every spelling, percent-encoded ones included.
    queryString: [...new URLSearchParams(exchange.query)].map(([name, value]) => ({ name, value })),
    ...(text !== '' && { postData: { mimeType: requestHeaders['content-type'] ?? '', text, ...(truncated && { _truncated: truncated }) } }),
    headersSize: -1,
    bodySize: text === '' && !truncated ? 0 : -1,
    ...(exchange.requestHeadersTruncated && { _headersTruncated: true }),
  };
}

/** `exchange`'s answer as HAR has it. */
function harResponse({ status, responseHeaders, responseBody }: RecordedExchange): HarResponse {
  if (status === 0) return NO_ANSWER;
  return {
    status,
    statusText: reasonPhrase(status),
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: pairs(responseHeaders),
    content: { size: ENCODER.encode(responseBody).byteLength, mimeType: responseHeaders['content-type'] ?? '', text: responseBody },
    redirectURL: responseHeaders.location ?? '',
    headersSize: -1,
    bodySize: -1,
  };
}

/**
 * One exchange of the journal as a HAR entry.
 *
 * @example
 * harEntry(store.requests[0]).response.status; // 200
 */
function harEntry(exchange: RecordedExchange): HarEntry {
  return {
    startedDateTime: startedAt(exchange),
    time: exchange.ms,
    request: harRequest(exchange),
    response: harResponse(exchange),
    cache: {},
    timings: { send: 0, wait: exchange.ms, receive: 0 },
  };
}

/**
 * `exchanges` as a HAR 1.2 log, an entry each in the order given.
 *
 * @example
 * const har = harOf(exchangesMatching(controls.requests, { status: 500 }));
 */
export function harOf(exchanges: readonly RecordedExchange[]): Har {
  return { log: { version: '1.2', creator: CREATOR, entries: exchanges.map(harEntry) } };
}

/**
 * {@link harOf}'s HAR as JSON, made a chunk at a time as the client reads it: a full journal is
 * never one string.
 *
 * @example
 * const reply: Reply = { status: 200, stream: () => harJson(exchangesMatching(controls.requests, filter)) };
 */
export function harJson(exchanges: readonly RecordedExchange[]): ReadableStream<Uint8Array> {
  const open = `{"log":{"version":"1.2","creator":${JSON.stringify(CREATOR)},"entries":[`;
  return jsonChunks(open, exchanges, (exchange) => JSON.stringify(harEntry(exchange)), ']}}');
}
