/** The one place values become Responses: an operation's reply, or any thrown value, rendered as JSON. */
import { ApiError } from './api-error.ts';

/** What an operation answers, before it becomes a Response: a status, a JSON body, headers. */
export interface Reply {
  readonly status: number;
  /** Serialized as JSON; absent for an empty body (204). */
  readonly body?: unknown;
  /** The body already serialized, when the operation can do it cheaper (takes precedence). */
  readonly json?: string;
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
  if (!(error instanceof ApiError)) onUnexpected(error);
  const apiError = error instanceof ApiError ? error : new ApiError({ status: 500, code: 'internal_error', message: GENERIC_500, cause: error });
  return { status: apiError.status, body: apiError.toJSON(), headers: apiError.headers };
}

/**
 * A new reply with `headers` (what every response to the request carries) laid over those of
 * `reply`, except `Link`, whose values are joined: a next page and a successor must both survive.
 */
export function withHeaders(reply: Reply, headers: Readonly<Record<string, string>>): Reply {
  const merged: Record<string, string> = { ...reply.headers, ...headers };
  if (reply.headers?.Link && headers.Link) merged.Link = `${reply.headers.Link}, ${headers.Link}`;
  return { ...reply, headers: merged };
}

/** The Response for `reply`: its JSON body (none for HEAD, with the length GET would send) and its headers. */
export function render(reply: Reply, { head = false, ResponseClass = Response }: RenderOptions = {}): Response {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body === undefined && reply.json === undefined) return new ResponseClass(null, { status: reply.status, headers });
  headers['Content-Type'] = 'application/json';
  const json = reply.json ?? JSON.stringify(reply.body);
  if (!head) return new ResponseClass(json, { status: reply.status, headers });
  // HEAD tells the length GET would send (RFC 9110 §9.3.2); Deno and Bun would say 0 for no body.
  headers['Content-Length'] = String(new TextEncoder().encode(json).byteLength);
  return new ResponseClass(null, { status: reply.status, headers });
}
