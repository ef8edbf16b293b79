/**
 * What the controls take and what the admin API answers, as valibot schemas: the fault rule
 * (`faults.inject` and `POST /__admin/faults`), the clock change and the seed list. They validate
 * every admin body, and admin-openapi.ts generates the admin document from them.
 */
import * as v from 'valibot';
import { ERROR_CODES, NewPetSchema } from '../src/index.ts';

/** The Date range: a time further than this from 1970 (ms, either way) has no date, so no clock may go there. */
const MAX_TIME_MS = 8.64e15;
/** The longest delay setTimeout keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** The longest `Retry-After` a fault may ask for: a day, the longest window of the API's quotas. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** JSON Schema keywords. */
type Keywords = Record<string, unknown>;

/**
 * `check` with the JSON Schema that says the same thing, so a rule across fields is written once
 * and still reaches the document (admin-openapi.ts adds `jsonSchema` to the object's `allOf`).
 */
function documented<TAction extends v.GenericValidation>(check: TAction, jsonSchema: Keywords): TAction & { readonly jsonSchema: Keywords } {
  return Object.assign(check, { jsonSchema });
}

/** The JSON Schema a check carries for the document, if it was {@link documented}. */
export function documentedJsonSchema(action: object): Keywords | undefined {
  return (action as { jsonSchema?: Keywords }).jsonSchema;
}

/** An integer from `min` to `max`, `message` for anything else. */
const integerFrom = (min: number, max: number, message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

const UNKNOWN_FIELD = (issue: v.StrictObjectIssue) => (issue.expected === 'never' ? 'is not a field of a fault' : 'must be an object');
const TIMES = 'must be a positive integer or "always"';

/** The fields of a fault rule, `path` as given (a string in JSON; JavaScript may also pass a RegExp). */
function faultRuleEntries<TPath extends v.GenericSchema>(path: TPath) {
  return {
    status: v.optional(
      v.pipe(
        integerFrom(400, 599, 'must be an integer from 400 to 599'),
        v.description(
          'Answer this status with the API\u2019s Error body and headers (429: Retry-After and quota headers; 503: Retry-After; 401: WWW-Authenticate).',
        ),
      ),
    ),
    code: v.optional(
      v.pipe(
        v.picklist(ERROR_CODES, `must be one of ${ERROR_CODES.join(', ')}`),
        v.description(
          'The Error body\u2019s code (needs status). Default: the API\u2019s code for the status, else invalid_request (4xx) or internal_error (5xx).',
        ),
      ),
    ),
    message: v.optional(v.pipe(v.string('must be a string'), v.description('The Error body\u2019s message (needs status). Default: one naming the fault.'))),
    network: v.optional(
      v.pipe(
        v.picklist(['reset', 'hang'], 'must be "reset" or "hang"'),
        v.description(
          'A network failure instead of an answer (not with status). reset: the connection is closed with no answer; hang: no answer until the client aborts.',
        ),
      ),
    ),
    delayMs: v.optional(
      v.pipe(
        integerFrom(0, MAX_DELAY_MS, `must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`),
        v.description('Wait this many real milliseconds first (to exercise client timeouts). Every matching rule adds its delay.'),
      ),
    ),
    times: v.optional(
      v.pipe(
        v.union([v.pipe(v.number(TIMES), v.safeInteger(TIMES), v.minValue(1, TIMES)), v.literal('always', TIMES)], TIMES),
        v.description('How many matching requests it applies to; "always" until cleared.'),
        v.metadata({ default: 1 }),
      ),
    ),
    probability: v.optional(
      v.pipe(
        v.number('must be a number from 0 to 1'),
        v.minValue(0, 'must be a number from 0 to 1'),
        v.maxValue(1, 'must be a number from 0 to 1'),
        v.description('Share of matching requests it hits.'),
        v.metadata({ default: 1 }),
      ),
    ),
    method: v.optional(
      v.pipe(
        v.string('must be an HTTP method like "POST"'),
        // RFC 9110 §5.6.2: a method is a token.
        v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP method like "POST"'),
        v.description('Only requests with this method (any case).'),
      ),
    ),
    path: v.optional(path),
    afterHandling: v.optional(
      v.pipe(
        v.boolean('must be true or false'),
        v.description('Handle the request, then answer the fault (a response lost after the commit). Needs status or network "reset".'),
      ),
    ),
    retryAfterSeconds: v.optional(
      v.pipe(
        integerFrom(1, MAX_RETRY_AFTER_SECONDS, `must be a whole number of seconds from 1 to ${MAX_RETRY_AFTER_SECONDS}`),
        v.description('Retry-After on a 429 or 503.'),
        v.metadata({ default: 1 }),
      ),
    ),
  };
}

/** The fields the rules across fields read. */
type RuleFields = {
  status?: number | undefined;
  code?: unknown;
  message?: unknown;
  network?: 'reset' | 'hang' | undefined;
  delayMs?: number | undefined;
  afterHandling?: boolean | undefined;
};

/**
 * `check` with its issues at `field`. The rules below are written once for both object schemas, and
 * TypeScript cannot follow a path into a generic type, so the path is checked against RuleFields.
 */
function forwardTo<T extends RuleFields>(check: v.CheckAction<T, string>, field: 'status' | 'afterHandling'): v.BaseValidation<T, T, v.CheckIssue<T>> {
  return v.forward(check as unknown as v.CheckAction<RuleFields, string>, [field]) as unknown as v.BaseValidation<T, T, v.CheckIssue<T>>;
}

/** The rules across a fault's fields, for the object schema whose output is `T`. */
function faultRules<T extends RuleFields>() {
  return [
    documented(
      forwardTo<T>(
        v.check<T, string>(
          (rule) => rule.status === undefined || rule.network === undefined,
          'must be left out with network (a network fault sends no status)',
        ),
        'status',
      ),
      { anyOf: [{ properties: { status: false } }, { properties: { network: false } }] },
    ),
    documented(
      forwardTo<T>(
        v.check<T, string>(
          (rule) => rule.status !== undefined || (rule.code === undefined && rule.message === undefined),
          'must be given with code or message',
        ),
        'status',
      ),
      { dependentRequired: { code: ['status'], message: ['status'] } },
    ),
    documented(
      v.check<T, string>(
        (rule) => rule.status !== undefined || rule.network !== undefined || (rule.delayMs ?? 0) > 0,
        'status, network or delayMs must be given: a fault with none of them does nothing',
      ),
      { anyOf: [{ required: ['status'] }, { required: ['network'] }, { required: ['delayMs'], properties: { delayMs: { exclusiveMinimum: 0 } } }] },
    ),
    documented(
      forwardTo<T>(
        v.check<T, string>(
          (rule) => !rule.afterHandling || rule.status !== undefined || rule.network === 'reset',
          'must be used with status or network "reset"',
        ),
        'afterHandling',
      ),
      {
        anyOf: [
          { properties: { afterHandling: { const: false } } },
          { required: ['status'] },
          { required: ['network'], properties: { network: { const: 'reset' } } },
        ],
      },
    ),
  ] as const;
}

const FAULT_DESCRIPTION =
  'One fault. Without status or network it only delays. The first matching failure answers; every matching rule adds its delay. Unknown fields are refused.';

const PATH_DESCRIPTION = 'Only requests with exactly this path, mount prefix and base path included (e.g. /v1/pets).';

const FaultRuleObject = v.strictObject(faultRuleEntries(v.pipe(v.string('must be a string like "/v1/pets"'), v.description(PATH_DESCRIPTION))), UNKNOWN_FIELD);
/** The body of `POST /__admin/faults`: a fault rule in JSON, `path` a string. */
export const FaultRuleSchema = v.pipe(
  FaultRuleObject,
  ...faultRules<v.InferOutput<typeof FaultRuleObject>>(),
  v.title('FaultRule'),
  v.description(FAULT_DESCRIPTION),
);

const FaultRuleInJavaScriptObject = v.strictObject(
  faultRuleEntries(v.union([v.string(), v.instance(RegExp)], 'must be a string like "/v1/pets" or a RegExp')),
  UNKNOWN_FIELD,
);
/** What `faults.inject` takes: the same rule, `path` also a RegExp the path must match. */
export const FaultRuleInJavaScriptSchema = v.pipe(FaultRuleInJavaScriptObject, ...faultRules<v.InferOutput<typeof FaultRuleInJavaScriptObject>>());

/** The names of a fault rule's fields. */
export const FAULT_RULE_FIELDS: readonly string[] = Object.keys(FaultRuleObject.entries);

/** An item of `GET /__admin/faults`: a rule as it was injected, its id and the requests it has left. */
export const PendingFaultSchema = v.pipe(
  v.strictObject({
    ...faultRuleEntries(
      v.pipe(v.string(), v.description(`${PATH_DESCRIPTION} A RegExp given in JavaScript is shown as its source between slashes, e.g. /^\\/v1\\/pets$/.`)),
    ),
    id: v.pipe(v.string(), v.description('Names the rule in logs and tests.')),
    left: v.pipe(v.union([v.pipe(v.number(), v.safeInteger(), v.minValue(1)), v.literal('always')]), v.description('Requests it will still apply to.')),
  }),
  v.title('PendingFault'),
  v.description('A fault that can still apply.'),
);

/** The answer of `POST /__admin/faults`. */
export const InjectedFaultSchema = v.pipe(v.strictObject({ id: v.pipe(v.string(), v.description('The new rule\u2019s id.')) }), v.title('InjectedFault'));

const CLOCK_CHANGE = 'must be {"advanceMs": <ms>} or {"set": "<ISO date>"}';
const ADVANCE = 'must be a number of milliseconds, 0 or more';
const SET = 'must be an ISO date-time like "2026-01-01T00:00:00Z"';

/** The fields of a clock change, each checked alone. */
const ClockChangeObject = v.strictObject(
  {
    advanceMs: v.optional(
      v.pipe(
        v.number(ADVANCE),
        v.minValue(0, ADVANCE),
        v.maxValue(2 * MAX_TIME_MS, ADVANCE),
        v.description(`Move the clock forward this many milliseconds; it must stay within the Date range (${MAX_TIME_MS} ms either side of 1970).`),
      ),
    ),
    set: v.optional(
      v.pipe(
        v.string(SET),
        v.isoTimestamp(SET),
        // The pattern also takes offsets Date cannot read (" +01"); text it refuses is named once, above.
        v.check((time) => !v.ISO_TIMESTAMP_REGEX.test(time) || Number.isFinite(Date.parse(time)), SET),
        v.description('Put the clock at this time.'),
      ),
    ),
  },
  (issue) => (issue.expected === 'never' ? `is not a field: the body ${CLOCK_CHANGE}` : CLOCK_CHANGE),
);
type ClockChange = v.InferOutput<typeof ClockChangeObject>;

/**
 * The body of `POST /__admin/clock`: exactly one of `advanceMs` and `set`. Where the clock is
 * decides how far it may go; {@link clockChangeFrom} adds that.
 */
export const ClockChangeSchema = v.pipe(
  ClockChangeObject,
  documented(
    v.check<ClockChange, string>((change) => (change.advanceMs === undefined) !== (change.set === undefined), CLOCK_CHANGE),
    { oneOf: [{ required: ['advanceMs'] }, { required: ['set'] }] },
  ),
  v.title('ClockChange'),
);

/** {@link ClockChangeSchema} for a clock at `now` (epoch ms): `advanceMs` may not take it past the Date range. */
export function clockChangeFrom(now: number) {
  const most = MAX_TIME_MS - now;
  return v.pipe(
    ClockChangeSchema,
    v.forward<ClockChange, v.CheckIssue<ClockChange>, ['advanceMs']>(
      v.check<ClockChange, string>(
        (change) => change.advanceMs === undefined || change.advanceMs <= most,
        `must keep the clock within the Date range (${MAX_TIME_MS} ms either side of 1970, up to ${new Date(MAX_TIME_MS).toISOString()}): at most ${most} ms from now`,
      ),
      ['advanceMs'],
    ),
  );
}

/** How the admin API writes a time (Date's toISOString): a clock set past the year 9999 has a six-digit year. */
const ISO_OUTPUT = 'in ISO 8601 as Date.prototype.toISOString writes it (2026-01-01T00:00:00.000Z; years past 9999 or before 0 as +275760 or -000001).';

/** The answer of `GET` and `POST /__admin/clock`. */
export const ClockTimeSchema = v.pipe(v.strictObject({ now: v.pipe(v.string(), v.description(`The store\u2019s time, ${ISO_OUTPUT}`)) }), v.title('ClockTime'));

/** The body of `POST /__admin/seed`: pets, each a `POST /pets` body. */
export const SeedSchema = v.pipe(
  v.array(NewPetSchema, 'must be a JSON array of pets, each like a POST /pets body'),
  v.description('Pets without ids, each validated like a POST /pets body.'),
);

const headerRecord = (description: string) => v.pipe(v.record(v.string(), v.string()), v.description(description));

/** An item of `GET /__admin/requests`: one exchange of the journal. */
export const RecordedExchangeSchema = v.pipe(
  v.strictObject({
    method: v.string(),
    path: v.pipe(v.string(), v.description('The path as sent, mount prefix and base path included (/v1/pets).')),
    query: v.pipe(v.string(), v.description('The query without ?, empty for none.')),
    url: v.string(),
    requestHeaders: headerRecord('Lower-case names; authorization keeps its scheme only (Bearer [redacted]).'),
    requestBody: v.string(),
    status: v.pipe(v.number(), v.integer(), v.description('The status answered; 0 when a network fault reset or hung the request.')),
    responseHeaders: headerRecord('Lower-case names.'),
    responseBody: v.string(),
    ms: v.pipe(v.number(), v.minValue(0), v.description('Real milliseconds from arrival to answer.')),
    time: v.pipe(v.string(), v.description(`The store\u2019s clock when it was answered, ${ISO_OUTPUT}`)),
  }),
  v.title('RecordedExchange'),
);
