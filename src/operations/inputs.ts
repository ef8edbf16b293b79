/** The valibot schemas of what operations read from a request besides the pet: query, path and headers. */
import * as v from 'valibot';
import { PetIdSchema, PetStatusSchema } from '../storage/pet.ts';

/** Largest page a client may ask for, and the page size when it asks for none. */
const MAX_LIMIT = 100;
/** Page size of `GET /pets` when the request names no `limit`. */
export const DEFAULT_LIMIT = 20;

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

/** What a cursor looks like: base64url, short. */
const CURSOR_TEXT = /^[A-Za-z0-9_-]{1,32}$/;
const NOT_A_CURSOR = 'is not a cursor from a Link header of this API';

/** Decodes a cursor made by {@link encodeCursor}; `undefined` when it is not one. */
export function decodeCursor(cursor: string): number | undefined {
  if (!CURSOR_TEXT.test(cursor)) return undefined;
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
      // The shape says itself in the document; whether it names a real position is the check's.
      v.regex(CURSOR_TEXT, NOT_A_CURSOR),
      v.check((cursor) => decodeCursor(cursor) !== undefined, NOT_A_CURSOR),
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
  petId: v.pipe(v.string(), v.regex(/^[0-9]{1,16}$/, 'must be a positive decimal integer'), v.transform(Number), PetIdSchema),
});
