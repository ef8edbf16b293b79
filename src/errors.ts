/** The one error type of the API and the one place that turns errors into responses. */
import { Response } from '@whatwg-node/server';
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

/** A JSON response with `application/json` content type. */
export function jsonResponse(body: unknown, status = 200, headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set('content-type', 'application/json');
  return response;
}

/** Renders an {@link ApiError}; anything else becomes a generic 500 after `onUnexpected` sees it. */
export function errorResponse(error: unknown, onUnexpected: (error: unknown) => void): Response {
  let apiError: ApiError;
  if (error instanceof ApiError) {
    apiError = error;
  } else {
    onUnexpected(error);
    apiError = internalError();
  }
  return jsonResponse(apiError.toJSON(), apiError.status, apiError.headers);
}
