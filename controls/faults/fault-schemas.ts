/**
 * A fault rule as valibot schemas: what `faults.inject` and `POST /__admin/faults` take, and what the
 * admin API answers of them (the clock's schemas are in clock/clock-schemas.ts, the seed's in
 * pets/seed-schemas.ts, the journal's in journal/journal-schemas.ts). They validate every rule, and
 * admin/admin-openapi.ts generates the admin document from them.
 */
import * as v from 'valibot';
import { ERROR_CODES } from '../../src/index.ts';
import { documented } from '../documented-check.ts';

/** The longest delay setTimeout keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** The longest `Retry-After` a fault may ask for: a day, the longest window of the API's quotas. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** An integer from `min` to `max`, `message` for anything else. */
const integerFrom = (min: number, max: number, message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

const UNKNOWN_FIELD = (issue: v.StrictObjectIssue) => (issue.expected === 'never' ? 'is not a field of a fault' : 'must be an object');

const DELAY = `must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`;
const DELAY_OR_RANGE = `${DELAY}, or a range like {"min": 100, "max": 400}`;
/** A delay drawn anew for each request, uniform from `min` to `max` (jitter). */
const DelayRangeSchema = v.pipe(
  v.strictObject({ min: integerFrom(0, MAX_DELAY_MS, DELAY), max: integerFrom(0, MAX_DELAY_MS, DELAY) }, DELAY_OR_RANGE),
  v.forward(
    v.check((range) => range.min <= range.max, 'must be at least min: a range runs from min up to max, e.g. {"min": 100, "max": 400}'),
    ['max'],
  ),
);
const TIMES = `must be a positive integer or "always" (at most ${Number.MAX_SAFE_INTEGER})`;

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
        v.union([integerFrom(0, MAX_DELAY_MS, DELAY), DelayRangeSchema], DELAY_OR_RANGE),
        v.description(
          'Wait this many real milliseconds first (to exercise client timeouts); a range {min, max} waits a whole number drawn anew for ' +
            'each request, both ends included (jitter; min at most max). Every matching rule adds its delay.',
        ),
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
  delayMs?: number | { min: number; max: number } | undefined;
  afterHandling?: boolean | undefined;
};

/**
 * `check` with its issues at `field`. The rules below are written once for both object schemas, and
 * TypeScript cannot follow a path into a generic type, so the path is checked against RuleFields.
 */
function forwardTo<T extends RuleFields>(check: v.CheckAction<T, string>, field: 'status' | 'afterHandling'): v.BaseValidation<T, T, v.CheckIssue<T>> {
  return v.forward(check as unknown as v.CheckAction<RuleFields, string>, [field]) as unknown as v.BaseValidation<T, T, v.CheckIssue<T>>;
}

/** The most a rule's delay can be: a range's `max`. */
const longestDelay = (delay: RuleFields['delayMs']) => (typeof delay === 'object' ? delay.max : (delay ?? 0));

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
        (rule) => rule.status !== undefined || rule.network !== undefined || longestDelay(rule.delayMs) > 0,
        'status, network or delayMs must be given: a fault with none of them does nothing',
      ),
      {
        anyOf: [
          { required: ['status'] },
          { required: ['network'] },
          // exclusiveMinimum speaks to a number, properties to a range: each form says it for itself.
          { required: ['delayMs'], properties: { delayMs: { exclusiveMinimum: 0, properties: { max: { exclusiveMinimum: 0 } } } } },
        ],
      },
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

/** A path as a fault names it: one without its leading slash would match no request, silently. */
const PathSchema = v.pipe(
  v.string('must be a string like "/v1/pets"'),
  v.regex(/^\//, 'must start with "/", like "/v1/pets": a path without it matches no request'),
);

const FaultRuleObject = v.strictObject(faultRuleEntries(v.pipe(PathSchema, v.description(PATH_DESCRIPTION))), UNKNOWN_FIELD);
/** The body of `POST /__admin/faults`: a fault rule in JSON, `path` a string. */
export const FaultRuleSchema = v.pipe(
  FaultRuleObject,
  ...faultRules<v.InferOutput<typeof FaultRuleObject>>(),
  v.title('FaultRule'),
  v.description(FAULT_DESCRIPTION),
);

const FaultRuleInJavaScriptObject = v.strictObject(
  faultRuleEntries(v.union([PathSchema, v.instance(RegExp)], 'must be a string like "/v1/pets" or a RegExp')),
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
    id: v.pipe(v.string(), v.description('Names the rule: DELETE /__admin/faults/{faultId} removes it.')),
    left: v.pipe(v.union([v.pipe(v.number(), v.safeInteger(), v.minValue(1)), v.literal('always')]), v.description('Requests it will still apply to.')),
  }),
  v.title('PendingFault'),
  v.description('A fault that can still apply.'),
);

/** The answer of `POST /__admin/faults`. */
export const InjectedFaultSchema = v.pipe(v.strictObject({ id: v.pipe(v.string(), v.description('The new rule\u2019s id.')) }), v.title('InjectedFault'));
