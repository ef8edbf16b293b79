/** A URL and init, as `petstore.fetch(url, init)` is called in tests, read as the request path reads a Request, without making one when the init is plain (unless user code asks for it). */
import type { RequestView } from '../src/index.ts';

/** What a plain init may hold: anything else (a signal, a stream body, a mode) makes a real Request. */
const PLAIN_FIELDS: ReadonlySet<string> = new Set(['method', 'headers', 'body']);
/** Methods a Request keeps as they are; others (`get`, `CONNECT`, a bad token) go through its rules. */
const PLAIN_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);
const UTF8 = new TextEncoder();

/** One read of a body, as a ReadableStream reader gives it. */
type BodyRead = ReadableStreamReadResult<Uint8Array>;

/** A string body as operations/body.ts reads one: `getReader()`, then `read` until done, or `cancel`. */
class TextBody {
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  getReader() {
    let bytes: Uint8Array | undefined = UTF8.encode(this.#text);
    return {
      read: (): Promise<BodyRead> => {
        const value = bytes;
        bytes = undefined;
        return Promise.resolve(value ? { done: false, value } : { done: true, value: undefined });
      },
      cancel: (): Promise<void> => Promise.resolve(),
    };
  }
}

/** The request the path reads: a normalized URL, the headers, the body as a reader; the Request itself made only if user code asks. */
class InitRequest implements RequestView {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: TextBody | null;
  readonly #text: string | null;
  #request: Request | undefined;

  constructor(method: string, url: string, headers: Headers, body: string | null) {
    this.method = method;
    this.url = url;
    this.headers = headers;
    this.#text = body;
    this.body = body === null ? null : new TextBody(body);
  }

  /** The Request `fetch(url, init)` would have made: its own copy of the body, which the path reads apart. */
  toRequest(): Request {
    this.#request ??= new Request(this.url, { method: this.method, headers: this.headers, body: this.#text });
    return this.#request;
  }
}

/**
 * `input` and `init` as the request path reads a Request, or `undefined` when only a real Request
 * behaves right: an init with more than a method, headers and a string body, an unusual method, or
 * a body on GET or HEAD. A new Request (its AbortSignal, webidl checks and body extraction) costs
 * several times a Headers and a URL, so this, with the reply rendered straight to a Response, is
 * the cheaper path: see BENCHMARKS.md, Findings and In-process. Both still throw the TypeError a Request would for a bad URL or header.
 *
 * @example
 * const request = initRequest('http://localhost/v1/pets', { headers: { Authorization: 'Bearer k' } });
 */
export function initRequest(input: string | URL, init: RequestInit | undefined): RequestView | undefined {
  if (init !== undefined && init !== null) {
    for (const field in init) if (!PLAIN_FIELDS.has(field)) return undefined;
  }
  const method = init?.method ?? 'GET';
  const body = init?.body ?? null;
  if (!PLAIN_METHODS.has(method) || (body !== null && (typeof body !== 'string' || method === 'GET' || method === 'HEAD'))) return undefined;
  // Unlike a Request, no `text/plain` type is added to a string body sent without one: the API
  // answers both alike (415), and nothing else on this path reads the request.
  return new InitRequest(method, new URL(input).href, new Headers(init?.headers), body);
}
