/** The valibot schemas that validate every request; the OpenAPI document is generated from them. */
import * as v from 'valibot';

/** Largest page a client may ask for, and the page size when it asks for none. */
export const MAX_LIMIT = 100;
/** Page size of `GET /pets` when the request names no `limit`. */
export const DEFAULT_LIMIT = 20;

/** Availability of a pet: `available`, `pending` or `sold`. */
export const PetStatusSchema = v.pipe(
  v.picklist(['available', 'pending', 'sold'], 'must be one of available, pending, sold'),
  v.title('PetStatus'),
  v.description('Availability status of the animal.'),
);
/** Availability of a pet. */
export type PetStatus = v.InferOutput<typeof PetStatusSchema>;

/** Identifier the service assigns to a pet: a positive integer, exact in JavaScript. */
export const PetIdSchema = v.pipe(
  v.number('must be an integer'),
  v.safeInteger('must be an integer no larger than 2^53-1'),
  v.minValue(1, 'must be at least 1'),
  v.metadata({ format: 'int64' }),
);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The body of `POST /pets`. Unknown fields are dropped, never stored. */
export const NewPetSchema = v.pipe(
  v.object({
    name: v.pipe(
      v.string('must be a string'),
      v.minLength(1, 'must not be empty'),
      // A lone surrogate cannot be stored as UTF-8 by most databases, so it is refused up front.
      v.check((name) => !LONE_SURROGATE.test(name), 'must be well-formed Unicode text'),
      v.description('Non-empty, well-formed Unicode text.'),
    ),
    categoryId: v.pipe(
      v.number('must be an integer'),
      v.safeInteger('must be an integer between -(2^53-1) and 2^53-1; larger int64 values are not accepted'),
      v.metadata({ format: 'int64' }),
    ),
    status: v.optional(PetStatusSchema),
  }),
  v.title('NewPet'),
);
/** A pet as a client submits it. */
export type NewPet = v.InferOutput<typeof NewPetSchema>;

/** A stored pet: every field of {@link NewPet} plus its `id`. */
export const PetSchema = v.pipe(
  v.object({ id: PetIdSchema, ...NewPetSchema.entries }),
  v.title('Pet'),
);
/** A pet as the service returns it. */
export type Pet = v.InferOutput<typeof PetSchema>;

/** One field-level problem in a 400 response. */
export const ErrorDetailSchema = v.object({
  field: v.pipe(v.string(), v.description('Where the problem is: a body field, query parameter or path parameter.')),
  message: v.pipe(v.string(), v.description('What is wrong with it.')),
});
/** One field-level problem in a 400 response. */
export type ErrorDetail = v.InferOutput<typeof ErrorDetailSchema>;

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
] as const;
/** A machine-readable error code. */
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
/** The body of every error response: `status` equals the HTTP status. */
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;

const ONCE = 'must appear at most once';

/** `limit` as it arrives in a query string: decimal digits naming 1..100. */
const LimitParamSchema = v.pipe(
  v.string(ONCE),
  v.regex(/^[0-9]{1,16}$/, `must be an integer from 1 to ${MAX_LIMIT}`),
  v.transform(Number),
  v.number(),
  v.integer(),
  v.minValue(1, `must be an integer from 1 to ${MAX_LIMIT}`),
  v.maxValue(MAX_LIMIT, `must be an integer from 1 to ${MAX_LIMIT}`),
);

/** Cursors are `p1:<last id>` in base64url: opaque to clients, cheap to check. */
const CURSOR_PATTERN = /^p1:([1-9][0-9]{0,15})$/;

/** Encodes "after this id" as the opaque `cursor` of a next-page link. */
export function encodeCursor(afterId: number): string {
  return btoa(`p1:${afterId}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes a cursor made by {@link encodeCursor}; `undefined` when it is not one. */
export function decodeCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(cursor)) return undefined;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const match = CURSOR_PATTERN.exec(text);
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) && encodeCursor(id) === cursor ? id : undefined;
}

/** The query of `GET /pets`, as strings from the URL; unknown parameters are dropped. */
export const ListQuerySchema = v.object({
  limit: v.optional(LimitParamSchema),
  status: v.optional(v.pipe(v.string(ONCE), PetStatusSchema)),
  cursor: v.optional(
    v.pipe(
      v.string(ONCE),
      v.check((cursor) => decodeCursor(cursor) !== undefined, 'is not a cursor from a Link header of this API'),
      v.description('Opaque; copy it from the `Link: rel="next"` header of the previous page.'),
    ),
  ),
});
/** The validated query of `GET /pets`. */
export type ListQuery = v.InferOutput<typeof ListQuerySchema>;

/** How long an `Idempotency-Key` is remembered: 24 hours, as Stripe does. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The headers `POST /pets` reads: an optional `Idempotency-Key` makes a retried create safe. */
export const CreateHeadersSchema = v.object({
  'Idempotency-Key': v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters'),
      v.description(
        'Makes a retried create safe: the same key with the same body within 24 hours returns the first pet ' +
          '(201, `Idempotent-Replayed: true`); with another body it is a 422. Keys are per API key.',
      ),
    ),
  ),
});

/** The path parameters of `GET /pets/{petId}`: `petId` is decimal digits naming a positive safe integer. */
export const PetPathSchema = v.object({
  petId: v.pipe(
    v.string(),
    v.regex(/^[0-9]{1,16}$/, 'must be a positive decimal integer'),
    v.transform(Number),
    PetIdSchema,
  ),
});
