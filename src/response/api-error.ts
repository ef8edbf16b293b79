/** The one error value of the API, and the schema of the body every error response carries. */
import * as v from 'valibot';

/** One field-level problem in a 400 response. */
const ErrorDetailSchema = v.object({
  field: v.pipe(v.string(), v.description('Where the problem is: a body field, query parameter or path parameter.')),
  message: v.pipe(v.string(), v.description('What is wrong with it.')),
});
/** One field-level problem in a 400 response. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** Stable machine-readable error codes, one per kind of failure. */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'key_banned',
  'gone',
  'idempotency_key_reused',
  'service_unavailable',
  'request_timeout',
  'headers_too_large',
  'expectation_failed',
  'internal_error',
  'insufficient_storage',
  'sandbox_conflict',
] as const;
/**
 * A machine-readable error code: what a client branches on.
 *
 * @example
 * if (body.code === 'rate_limited') await retryLater();
 */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The body of every error response. */
export const ErrorBodySchema = v.pipe(
  v.object({
    code: v.picklist(ERROR_CODES),
    message: v.string(),
    status: v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)),
    details: v.optional(v.array(ErrorDetailSchema)),
  }),
  v.title('Error'),
);
/**
 * The body of every error response: `status` equals the HTTP status.
 *
 * @example
 * const { code, message, status }: ErrorBody = await response.json();
 */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  details?: ErrorDetail[];
}

/**
 * What an {@link ApiError} is made of.
 *
 * @example
 * const options: ApiErrorOptions = { status: 404, code: 'not_found', message: 'Pet 7 does not exist.' };
 */
export interface ApiErrorOptions {
  /** HTTP status of the response, 400–599. */
  readonly status: number;
  /** Stable machine-readable code. */
  readonly code: ErrorCode;
  /** Human-readable explanation; never contains secrets. */
  readonly message: string;
  /** Field-level problems (400 responses). */
  readonly details?: readonly ErrorDetail[];
  /** Extra response headers, such as `Allow` or `WWW-Authenticate`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** What caused it, for logs; never sent to the client. */
  readonly cause?: unknown;
}

/** `Error` with the V8 (and JavaScriptCore) setting the core's types, which name no runtime, leave out. */
const StackLimited = Error as ErrorConstructor & { stackTraceLimit?: number };

/**
 * An error a client caused or must be told about: throw it anywhere in the request path, or from
 * your own `PetStorage` (a 503 while a database is down, say), and the client gets it as an
 * `{ code, message, status }` JSON body with `headers`. Any other thrown value becomes a generic 500.
 *
 * @example
 * throw new ApiError({ status: 503, code: 'service_unavailable', message: 'The database is down.', headers: { 'Retry-After': '5' }, cause: error });
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: readonly ErrorDetail[] | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor({ status, code, message, details, headers, cause }: ApiErrorOptions) {
    // An ApiError is an answer, not a bug: no stack frames, whose capture cost each 401 and 429
    // more than the rest of its answer (BENCHMARKS.md, Findings). A cause keeps its own.
    // Only where the runtime has the setting (V8, JavaScriptCore): elsewhere nothing is touched.
    const stackTraceLimit = StackLimited.stackTraceLimit;
    if (typeof stackTraceLimit === 'number') StackLimited.stackTraceLimit = 0;
    try {
      super(message, cause === undefined ? undefined : { cause });
    } finally {
      if (typeof stackTraceLimit === 'number') StackLimited.stackTraceLimit = stackTraceLimit;
    }
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  /** The JSON body clients receive. */
  toJSON(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, status: this.status };
    if (this.details) body.details = [...this.details];
    return body;
  }
}
