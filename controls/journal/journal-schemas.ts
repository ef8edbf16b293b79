/**
 * The journal over HTTP as valibot schemas: its exchanges (`GET /__admin/requests`), the filters
 * its queries take, the verification `POST /__admin/verify` reads and what both answer. They
 * validate every journal query, and admin-openapi.ts generates the admin document from them.
 */
import * as v from 'valibot';
import { ISO_DATE_TIME, ISO_OUTPUT } from '../clock/clock-schemas.ts';

const headerRecord = (description: string) => v.pipe(v.record(v.string(), v.string()), v.description(description));

/**
 * An item of `GET /__admin/requests`: one exchange of the journal.
 *
 * @example
 * v.is(RecordedExchangeSchema, store.requests[0]); // true
 */
export const RecordedExchangeSchema = v.pipe(
  v.strictObject({
    method: v.string(),
    path: v.pipe(v.string(), v.description('The path as sent, mount prefix and base path included (/v1/pets).')),
    query: v.pipe(v.string(), v.description('The query without ?, empty for none.')),
    url: v.string(),
    requestHeaders: headerRecord(
      'Lower-case names; authorization keeps its scheme only (Bearer [redacted]). At most 64 headers, each value cut at 1,024 characters, 8,192 in all (16, 256 and 2,048 for a 401, 413, 415 or 429).',
    ),
    requestHeadersTruncated: v.optional(v.pipe(v.literal(true), v.description('Present when headers were left out or values cut to those bounds.'))),
    requestBody: v.pipe(
      v.string(),
      v.description('The body as text: its first maxBodyBytes bytes at most, never read further; empty for a 401, 413, 415 or 429, whose body is never read.'),
    ),
    requestBodyTruncated: v.optional(
      v.pipe(v.literal(true), v.description('Present when the body went on past what requestBody holds (maxBodyBytes, or nothing for a refused request).')),
    ),
    status: v.pipe(v.number(), v.integer(), v.description('The status answered; 0 when a network fault reset or hung the request.')),
    plan: v.optional(
      v.pipe(
        v.picklist(['free', 'pro', 'business', 'enterprise']),
        v.description(
          'The plan of the key the request was counted against (enterprise: a key with quotas of its own); absent when it was counted against none (no key or a wrong one, a public path, a probe).',
        ),
      ),
    ),
    responseHeaders: headerRecord('Lower-case names.'),
    responseBody: v.string(),
    ms: v.pipe(v.number(), v.minValue(0), v.description('Real milliseconds from arrival to answer.')),
    time: v.pipe(v.string(), v.description(`The store\u2019s clock when it was answered, ${ISO_OUTPUT}`)),
  }),
  v.title('RecordedExchange'),
);

const ONCE = 'must appear at most once';
const METHOD = 'must be an HTTP method like "POST"';
const PATH = 'must be a path like "/v1/pets"';
const STATUS = 'must be a status from 0 to 999, like 404 (0: a network fault)';
const SINCE = 'must be an ISO date-time like "2026-01-01T00:00:00Z"';
const LIMIT = 'must be a whole number from 1 to 999999999999999, without leading zeros';
// RFC 9110 §5.6.2: a method is a token.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const METHOD_ABOUT = 'Only exchanges with this method (any case).';
const PATH_ABOUT = 'Only exchanges with exactly this path, mount prefix and base path included (e.g. /v1/pets).';
const STATUS_ABOUT = 'Only exchanges answered with this status; 0 for a request a network fault reset or hung.';

/**
 * The query of `GET /__admin/requests` and `GET /__admin/requests/count`, each parameter text as
 * it arrives (a repeated one an array, refused): journal-query.ts turns it into a filter.
 *
 * @example
 * v.is(JournalQuerySchema, { method: 'post', status: '201', limit: '5' }); // true
 */
export const JournalQuerySchema = v.strictObject(
  {
    method: v.optional(v.pipe(v.string(ONCE), v.regex(TOKEN, METHOD), v.description(METHOD_ABOUT))),
    path: v.optional(v.pipe(v.string(ONCE), v.regex(/^\//, PATH), v.description(PATH_ABOUT))),
    status: v.optional(v.pipe(v.string(ONCE), v.regex(/^[0-9]{1,3}$/, STATUS), v.description(STATUS_ABOUT))),
    since: v.optional(
      v.pipe(
        v.string(ONCE),
        // Every text the pattern allows is served: a time past the Date range is its end (timeOf).
        v.regex(ISO_DATE_TIME, SINCE),
        v.description(
          'Only exchanges answered at this time or later by the store\u2019s clock (their `time`): an ISO 8601 date-time with seconds and Z or an offset, a day the calendar has; a year outside 0000-9999 in six digits with a sign.',
        ),
      ),
    ),
    limit: v.optional(
      v.pipe(
        v.string(ONCE),
        // Fifteen digits at most: every number the pattern allows is served (all are safe integers), so the document says the whole bound.
        v.regex(/^[1-9][0-9]{0,14}$/, LIMIT),
        v.description('Only the newest this many of the matching exchanges, still oldest first.'),
      ),
    ),
  },
  (issue) => (issue.expected === 'never' ? 'is not a filter: use method, path, status, since or limit' : 'must be a query'),
);

/**
 * A journal query as it arrived, checked.
 *
 * @example
 * const query: JournalQuery = { status: '404', limit: '1' };
 */
export type JournalQuery = v.InferOutput<typeof JournalQuerySchema>;

const TIMES = `must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`;

/**
 * The body of `POST /__admin/verify`: `verify()`'s arguments in JSON, `path` a string.
 *
 * @example
 * v.is(VerificationSchema, { method: 'POST', path: '/v1/pets', times: 1 }); // true
 */
export const VerificationSchema = v.pipe(
  v.strictObject(
    {
      method: v.optional(v.pipe(v.string(METHOD), v.regex(TOKEN, METHOD), v.description(METHOD_ABOUT))),
      path: v.optional(v.pipe(v.string(PATH), v.regex(/^\//, PATH), v.description(PATH_ABOUT))),
      status: v.optional(v.pipe(v.number(STATUS), v.integer(STATUS), v.minValue(0, STATUS), v.maxValue(999, STATUS), v.description(STATUS_ABOUT))),
      times: v.pipe(v.number(TIMES), v.safeInteger(TIMES), v.minValue(0, TIMES), v.description('How many exchanges must match: exactly this many.')),
    },
    (issue) => (issue.expected === 'never' ? 'is not a field of a verification' : issue.path ? 'is required' : 'must be an object'),
  ),
  v.title('Verification'),
  v.description('How many journal exchanges must match; each given field must equal the exchange\u2019s.'),
);

/**
 * What `GET /__admin/requests/count` answers, and `POST /__admin/verify` when it holds.
 *
 * @example
 * const answer: v.InferOutput<typeof RequestCountSchema> = { count: 2 };
 */
export const RequestCountSchema = v.pipe(
  v.strictObject({ count: v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.description('How many exchanges match.')) }),
  v.title('RequestCount'),
);

/**
 * The 409 of `POST /__admin/verify`: an Error body whose message says what differs.
 *
 * @example
 * const failed = { code: 'verification_failed', message: 'Expected 1 request(s) matching POST * *, got 0.…', status: 409 };
 */
export const VerificationFailedSchema = v.pipe(
  v.strictObject({
    code: v.pipe(v.picklist(['verification_failed']), v.description('The admin API\u2019s own code: the verification does not hold.')),
    message: v.pipe(
      v.string(),
      v.description('The expectation, how many matched, and every exchange the journal keeps (one a line, matches marked +), as verify() throws it.'),
    ),
    status: v.pipe(v.literal(409), v.description('The HTTP status, repeated.')),
  }),
  v.title('VerificationFailed'),
);
