/** What a host may tell the handler about a request beyond the Request itself. */

/**
 * Per-request values a host may pass as the handler's server context (`petstore.fetch(request,
 * context)`). Under node:http, Express, Deno.serve and Bun.serve they are found on their own.
 *
 * @example
 * await petstore.fetch(request, { clientAddress: '203.0.113.7', mountPath: '/api' });
 */
export interface PetStoreContext {
  /** The client's network address, for limiting callers without a valid key. */
  readonly clientAddress?: string;
  /**
   * The path prefix the host mounted the API under (`/api`), whether or not it removed it from
   * the request's path: URLs the API writes carry it. Express's `req.baseUrl` is read on its own.
   */
  readonly mountPath?: string;
  /**
   * The request body, when the host's body parser already read it: a parsed JSON value, or the
   * raw text or bytes. It is checked exactly like a body read from the request.
   */
  readonly body?: unknown;
  /**
   * The error the host's body parser failed with, if it did. A body it found too large (status
   * 413, as body-parser, co-body and Fastify report it) is answered 413; text it could not parse
   * (on the error as `body`, as body-parser and co-body keep it) is checked like a body the Pet
   * Store read itself, so the answer is the same 400; anything else is a 400 for invalid JSON.
   */
  readonly bodyError?: unknown;
}
