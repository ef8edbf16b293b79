/** The request as the request path reads it: a Request, or a host's lighter view of one that makes the Request only when user code asks. */

/**
 * The header reads the path makes, by lower-case name (a host's view looks names up as node:http
 * keeps them, without lower-casing each); a Request's `Headers`, which takes any case, is one.
 */
export interface HeaderReader {
  get(name: Lowercase<string>): string | null;
  has(name: Lowercase<string>): boolean;
}

/** The body reads the path makes (`getReader()`, then `read` until done, or `cancel`); a Request's body stream is one. */
export interface BodySource {
  getReader(): { read(): Promise<ReadableStreamReadResult<Uint8Array>>; cancel(): Promise<void> };
}

/**
 * What a host hands the path instead of a Request where making one costs more than the path reads
 * (the direct node:http path, `petstore.fetch(url, init)` in process): the fields the path reads,
 * and the Request itself, made when user code (the `clientAddress` option) asks for it.
 *
 * @example
 * const view: RequestView = { method: 'GET', url, headers, body: null, toRequest: () => new Request(url, { headers }) };
 */
export interface RequestView {
  readonly method: string;
  /** The absolute URL a Request of it would have. */
  readonly url: string;
  readonly headers: HeaderReader;
  readonly body: BodySource | null;
  /** The same request as a Request, made on the first call and the same object after. */
  toRequest(): Request;
}

/**
 * What the request path reads: a Request, or a {@link RequestView} of one. User code is never
 * handed a view: {@link requestForUser} makes the Request first.
 *
 * @example
 * const answer: Answer = async (request: ApiRequest) => ({ status: 200, json: JSON.stringify(request.method) });
 */
export type ApiRequest = Request | RequestView;

/**
 * `request` as the Request user code is promised: itself, or the Request its view makes.
 *
 * @example
 * const address = clientAddress(requestForUser(request), host);
 */
export function requestForUser(request: ApiRequest): Request {
  return 'toRequest' in request ? request.toRequest() : request;
}
