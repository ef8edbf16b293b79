/** What a fault answers: a failure rule's Error (with the quota headers a real 429 has), and the 503 of a request a reset interrupted. */
import {
  ApiError,
  createAuthenticator,
  errorReply,
  PLAN_QUOTAS,
  planQuota,
  refusalHeaders,
  render,
  type ErrorCode,
  type ResolvedOptions,
} from '../../src/index.ts';

/** The API's code for each status it answers; other statuses get the class's generic code. */
const CODE_OF_STATUS: Readonly<Partial<Record<number, ErrorCode>>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  417: 'expectation_failed',
  422: 'idempotency_key_reused',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal_error',
  503: 'service_unavailable',
  507: 'insufficient_storage',
};

/**
 * The quota headers of an injected 429 for the callers of `apiKeys` at `now`: the caller's plan
 * (without a valid key, the free plan, as the limits step counts such a request), its minute
 * window spent until `Retry-After`, as a real refusal tells it.
 *
 * @example
 * const faults = createFaults({ quotaHeaders: refusalQuotaHeaders(config.apiKeys, clock.now) });
 */
export function refusalQuotaHeaders(
  apiKeys: ResolvedOptions['apiKeys'],
  now: () => number,
): (request: Request, retryAfterSeconds: number) => Record<string, string> {
  const authenticate = createAuthenticator(apiKeys);
  return (request, retryAfterSeconds) => {
    const authentication = authenticate(request);
    const quota = 'caller' in authentication ? planQuota(authentication.caller.plan) : PLAN_QUOTAS.free;
    return refusalHeaders(quota, now(), retryAfterSeconds);
  };
}

/** What of a failure rule (a FaultRule with `status`) its answer is made of. */
interface FailureRule {
  readonly status?: number;
  readonly code?: ErrorCode;
  readonly message?: string;
  readonly retryAfterSeconds?: number;
}

/**
 * The ApiError a failure rule answers with: its status, its code (or the API's for that status),
 * its message, and the headers a real answer of that status has.
 *
 * @example
 * throw faultError({ status: 503, retryAfterSeconds: 5 }, undefined); // 503 service_unavailable, Retry-After: 5
 */
export function faultError(rule: FailureRule, quota: Record<string, string> | undefined): ApiError {
  const status = rule.status!;
  const code = rule.code ?? CODE_OF_STATUS[status] ?? (status < 500 ? 'invalid_request' : 'internal_error');
  const retryAfter = String(rule.retryAfterSeconds ?? 1);
  const headers: Record<string, string> = {};
  if (status === 429) Object.assign(headers, quota, { 'Retry-After': retryAfter });
  if (status === 503) headers['Retry-After'] = retryAfter;
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer realm="petstore"';
  return new ApiError({ status, code, message: rule.message ?? `Injected fault: ${status} ${code}.`, headers });
}

/** The answer for requests that arrived before a reset and were still unanswered: a fault was holding them, or they had not reached the request path. */
export function interruptedReply(): Response {
  const error = new ApiError({
    status: 503,
    code: 'service_unavailable',
    message: 'The fake backend was reset while this request waited.',
    headers: { 'Retry-After': '1' },
  });
  return render(errorReply(error, () => {}));
}
