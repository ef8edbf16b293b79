/** The one place values become Responses: an operation's reply, or any thrown value, rendered as JSON. */
import { ApiError } from './api-error.ts';
import { reasonPhrase } from './reason.ts';

/** What an operation answers, before it becomes a Response: a status, a JSON body, headers. */
export interface Reply {
  readonly status: number;
  /** Serialized as JSON; absent for an empty body (204). */
  readonly body?: unknown;
  /** The body already serialized, when the operation can do it cheaper (takes precedence). */
  readonly json?: string;
  /** The UTF-8 length of `json`, when the operation knows it without scanning the text. */
  readonly jsonBytes?: number;
  /**
   * The JSON body made as it is sent, for one too large to hold as a string (the admin API's
   * journal): only {@link render} sends it, without a Content-Length; HEAD never calls it.
   */
  readonly stream?: () => ReadableStream<Uint8Array>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** How {@link render} builds the Response. */
interface RenderOptions {
  /** HEAD: the headers GET would send, with no body. */
  readonly head?: boolean;
  /** The Response class to build with. Default: the runtime's own. */
  readonly ResponseClass?: typeof Response;
}

const GENERIC_500 = 'The server failed to handle the request. Try again later.';

/**
 * The reply for a thrown value: an {@link ApiError} as it is; anything else is shown to
 * `onUnexpected` and answered with a generic 500, so nothing internal reaches the client.
 */
export function errorReply(error: unknown, onUnexpected: (error: unknown) => void): Reply {
  const fixed = fixedReplies.get(error as ApiError);
  if (fixed !== undefined) return fixed;
  if (!(error instanceof ApiError)) onUnexpected(error);
  const apiError = error instanceof ApiError ? error : new ApiError({ status: 500, code: 'internal_error', message: GENERIC_500, cause: error });
  return { status: apiError.status, body: apiError.toJSON(), headers: apiError.headers };
}

/** The replies of errors made once and thrown on many requests, serialized once (see {@link fixedError}). */
const fixedReplies = new WeakMap<ApiError, Reply>();

/**
 * `error`, with its reply (the JSON body and its UTF-8 length) made now, once: for an error made
 * once and thrown again and again (the two 401s, a ban's answer within one second), whose body
 * would otherwise be built and serialized anew on every refusal (BENCHMARKS.md, HTTP: the 401 and 429 rows).
 * Only for an error nobody changes afterwards: its `details` are read now.
 *
 * @example
 * const MISSING_KEY = fixedError(new ApiError({ status: 401, code: 'unauthorized', message: 'Send an API key.' }));
 */
export function fixedError(error: ApiError): ApiError {
  const json = JSON.stringify(error.toJSON());
  fixedReplies.set(error, Object.freeze({ status: error.status, json, jsonBytes: utf8Length(json), headers: error.headers }));
  return error;
}

/**
 * A new reply with `headers` (what every response to the request carries) laid over those of
 * `reply`, except `Link`, whose values are joined: a next page and a successor must both survive.
 */
export function withHeaders(reply: Reply, headers: Readonly<Record<string, string>>): Reply {
  // Most requests add none (CORS off, a route without headers): no copy for nothing.
  if (isEmpty(headers)) return reply;
  const merged: Record<string, string> = Object.assign({}, reply.headers, headers);
  if (reply.headers?.Link && headers.Link) merged.Link = `${reply.headers.Link}, ${headers.Link}`;
  return { status: reply.status, body: reply.body, json: reply.json, jsonBytes: reply.jsonBytes, headers: merged };
}

/**
 * The reply of an error a fault injects where a step answered: `headers` (what every answer to the
 * request carries: quota, the route's) laid over it, then the error's own again, so that an
 * injected 429's quota headers and a 503's `Retry-After` win over the step's.
 *
 * @example
 * injectedReply(new ApiError({ status: 503, code: 'service_unavailable', message: 'Down.' }), { 'X-RateLimit-Remaining': '59' });
 */
export function injectedReply(error: ApiError, headers: Readonly<Record<string, string>>): Reply {
  // A step's Retry-After belongs to the refusal (a 429) the fault answers in place of: only an error that says its own keeps one.
  const { 'Retry-After': _refusals, ...stepHeaders } = headers;
  const reply = withHeaders(
    errorReply(error, () => {}),
    stepHeaders,
  );
  return error.headers ? withHeaders(reply, error.headers) : reply;
}

/** True for `{}`, checked without building a list of keys. */
function isEmpty(record: Readonly<Record<string, string>>): boolean {
  for (const _ in record) return false;
  return true;
}

/** A reply as it goes on the wire: its status, its headers (with the JSON type) and its body text, `null` for none. */
export interface WireReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | null;
  /** The UTF-8 length of `body`, when the reply told it. */
  readonly bodyBytes?: number | undefined;
}

/** What `reply` sends: its JSON body (none for HEAD, with the length GET would send) and its headers. */
export function wireReply(reply: Reply, head = false): WireReply {
  // Object.assign, not a spread: adding a field to a spread copy costs many times the copy in V8
  // (Node 20), on every row (BENCHMARKS.md, Findings).
  const headers: Record<string, string> = Object.assign({}, reply.headers);
  if (reply.body === undefined && reply.json === undefined) return { status: reply.status, headers, body: null };
  headers['Content-Type'] = 'application/json';
  const json = reply.json ?? JSON.stringify(reply.body);
  const bodyBytes = reply.json === undefined ? undefined : reply.jsonBytes;
  if (!head) return { status: reply.status, headers, body: json, bodyBytes };
  // HEAD tells the length GET would send (RFC 9110 §9.3.2); Deno and Bun would say 0 for no body.
  headers['Content-Length'] = String(bodyBytes ?? utf8Length(json));
  return { status: reply.status, headers, body: null };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the class is every ASCII code, control characters included
const NON_ASCII = /[^\x00-\x7f]/;

/** The length of `text` in UTF-8 bytes, counted without encoding it. */
export function utf8Length(text: string): number {
  // Most bodies are ASCII, one byte per unit: a native regex scan says so faster than a loop (BENCHMARKS.md, Findings).
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    // A surrogate pair is 2 UTF-16 units and 4 bytes: 1 + 1 extra each. A lone surrogate becomes U+FFFD, 3 bytes.
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * The Response for `reply`, as {@link wireReply} makes it, with its reason phrase: a bridge writes
 * `statusText` into the status line, and a Response made without one says `HTTP/1.1 503 `.
 *
 * @example
 * render({ status: 503, body: { code: 'service_unavailable' } }).statusText; // 'Service Unavailable'
 */
export function render(reply: Reply, { head = false, ResponseClass = Response }: RenderOptions = {}): Response {
  if (reply.stream) {
    const headers = Object.assign({}, reply.headers, { 'Content-Type': 'application/json' });
    return new ResponseClass(head ? null : reply.stream(), { status: reply.status, statusText: reasonPhrase(reply.status), headers });
  }
  const { status, headers, body } = wireReply(reply, head);
  return new ResponseClass(body, { status, statusText: reasonPhrase(status), headers });
}
