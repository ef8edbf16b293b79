/** The one error type of the API and the one place that turns errors into responses. */
import type { ErrorBody, ErrorCode, ErrorDetail } from './schemas.ts';

/**
 * An error a client caused or must be told about. Throw it anywhere in the request path;
 * {@link errorResponse} renders it as an `{ code, message, status }` JSON body.
 *
 * @example
 * throw new ApiError(404, 'not_found', 'Pet 7 does not exist.');
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  /**
   * @param status - HTTP status of the response, 400–599.
   * @param code - Stable machine-readable code.
   * @param message - Human-readable explanation; never contains secrets.
   * @param details - Field-level problems (400 responses).
   * @param headers - Extra response headers, such as `Allow` or `WWW-Authenticate`.
   */
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: readonly ErrorDetail[],
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }

  /** The JSON body clients receive. */
  toJSON(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, status: this.status };
    if (this.details) body.details = [...this.details];
    return body;
  }
}

/** The response for an unexpected failure: generic on purpose, so nothing internal leaks. */
export const internalError = (): ApiError =>
  new ApiError(500, 'internal_error', 'The server failed to handle the request. Try again later.');

/** What an operation answers, before it becomes a Response: a status, a JSON body, headers. */
export interface Reply {
  readonly status: number;
  /** Serialized as JSON; absent for an empty body (204). */
  readonly body?: unknown;
  /** The body already serialized, when the operation can do it cheaper (takes precedence). */
  readonly json?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The reply for an error: an {@link ApiError} as it is, anything else as a generic 500 after `onUnexpected` sees it. */
export function errorReply(error: unknown, onUnexpected: (error: unknown) => void): Reply {
  let apiError: ApiError;
  if (error instanceof ApiError) {
    apiError = error;
  } else {
    onUnexpected(error);
    apiError = internalError();
  }
  return { status: apiError.status, body: apiError.toJSON(), headers: apiError.headers };
}

/**
 * The one place a reply becomes a Response: JSON body, its headers and `headers` (what every
 * response of the request carries) in a single construction; `head` drops the body (HEAD).
 * Built with `ResponseClass`: the runtime's own unless the caller knows a better one.
 */
export function render(
  reply: Reply,
  headers: Readonly<Record<string, string>> = {},
  head = false,
  ResponseClass: typeof Response = Response,
): Response {
  const all: Record<string, string> = { ...reply.headers, ...headers };
  // Two Link values (a next page and a successor, say) must both survive.
  if (reply.headers?.Link && headers.Link) all.Link = `${reply.headers.Link}, ${headers.Link}`;
  if (reply.body === undefined && reply.json === undefined) return new ResponseClass(null, { status: reply.status, headers: all });
  all['Content-Type'] = 'application/json';
  const json = reply.json ?? JSON.stringify(reply.body);
  if (!head) return new ResponseClass(json, { status: reply.status, headers: all });
  // HEAD tells the length GET would send (RFC 9110 §9.3.2); Deno and Bun would say 0 for no body.
  all['Content-Length'] = String(new TextEncoder().encode(json).byteLength);
  return new ResponseClass(null, { status: reply.status, headers: all });
}

/** A rendered error: what the fault injectors of the testing kit answer with. */
export const errorResponse = (error: unknown, onUnexpected: (error: unknown) => void): Response =>
  render(errorReply(error, onUnexpected));
