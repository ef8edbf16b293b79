/** Faults in front of the request path: error answers, network failures and delays, for testing clients' retry logic. */
import * as v from 'valibot';
import { assertKnownOptions, connectionReset, pathAndQuery, type ErrorCode, type Handle, type Injected } from '../../src/index.ts';
import { faultError, interruptedReply } from './fault-answers.ts';
import { FAULT_RULE_FIELDS, FaultRuleInJavaScriptSchema } from './fault-schemas.ts';
import { between } from '../pets/random.ts';

/**
 * A delay drawn anew for each request: a whole number of milliseconds from `min` to `max`, both
 * included, uniformly (jitter).
 *
 * @example
 * const jitter: DelayRange = { min: 100, max: 400 };
 */
export interface DelayRange {
  min: number;
  max: number;
}

/**
 * One fault to inject: the same shape in JavaScript (`faults.inject(rule)`) and as the JSON body
 * of `POST /__admin/faults` (where `path` is a string). Without `status` or `network` it only delays.
 *
 * @example
 * const rule: FaultRule = { status: 429, method: 'POST', path: '/v1/pets', times: 2, retryAfterSeconds: 30 };
 */
export interface FaultRule {
  /**
   * Answer with this status, 400 to 599, in the operation's place: its Error body (`code` as the
   * API uses it for that status) and headers (429: `Retry-After` and quota headers; 503:
   * `Retry-After`; 401: `WWW-Authenticate`; 405: `Allow`), plus every header a real answer to
   * the request carries (the quota headers, as the request is counted like any other;
   * `Deprecation`, `Sunset` and the successor `Link` on `GET /pets/{petId}`; CORS), whatever key
   * it has.
   */
  readonly status?: number;
  /** The Error body's `code`. Default: the API's code for `status`, else `invalid_request` (4xx) or `internal_error` (5xx). */
  readonly code?: ErrorCode;
  /** The Error body's `message`. Default: one naming the fault. */
  readonly message?: string;
  /**
   * A network failure instead of an answer. `reset`: the connection is closed with no response
   * (in process, `fetch` rejects with a TypeError, as on a real network error). `hang`: no answer
   * until the client aborts (in process, `fetch` rejects with the abort reason).
   */
  readonly network?: 'reset' | 'hang';
  /**
   * Wait this many real milliseconds first (to exercise client timeouts): a whole number up to
   * 2^31 - 1, the longest setTimeout keeps; or a {@link DelayRange} `{ min, max }`, drawn for each
   * request from the injector's `random` (seeded in tests: the test kit's `randomSeed`).
   */
  readonly delayMs?: number | DelayRange;
  /** How many matching requests it applies to. Default 1; `'always'` until cleared. */
  readonly times?: number | 'always';
  /** Share of matching requests it hits, 0 to 1. Default 1. */
  readonly probability?: number;
  /** Only requests with this method (an HTTP token, any case). */
  readonly method?: string;
  /** Only requests whose path equals this string (e.g. `/v1/pets`) or matches this pattern. */
  readonly path?: string | RegExp;
  /**
   * Handle the request first and then answer the fault, as when a response is lost after the
   * server committed. This is how a retried create without an Idempotency-Key makes a duplicate.
   */
  readonly afterHandling?: boolean;
  /** `Retry-After` seconds on a 429 or 503, 1 to 86400 (a day). Default 1. */
  readonly retryAfterSeconds?: number;
}

/** A rule still waiting for requests, as `faults.list()` and `GET /__admin/faults` show it. */
export interface PendingFault extends FaultRule {
  /** Names the rule: `faults.remove(id)` and `DELETE /__admin/faults/{faultId}` take it away. */
  readonly id: string;
  /** Requests it will still apply to. */
  readonly left: number | 'always';
}

/**
 * The faults waiting to hit requests.
 *
 * @example
 * store.faults.inject({ network: 'reset', method: 'POST' });
 * store.faults.failNext(2, { status: 503 });
 */
export interface Faults {
  /** Adds a rule and returns its id. Every matching rule adds its delay; the first matching failure answers. A rule that cannot work is a TypeError. */
  inject(rule: FaultRule): string;
  /** The next `count` requests (matching `rule`) answer `status` (default 503). */
  failNext(count?: number, rule?: Omit<FaultRule, 'times'>): string;
  /** The next `count` requests (matching `rule`) wait `ms` real milliseconds first (or a whole number drawn from a range). */
  delayNext(count: number, ms: number | DelayRange, rule?: Omit<FaultRule, 'times' | 'delayMs'>): string;
  /** Rules that can still apply, oldest first. */
  list(): PendingFault[];
  /** Removes the rule `id`, the others left as they are; `false` when no rule of that id can still apply. */
  remove(id: string): boolean;
  /** Removes every rule. */
  clear(): void;
  /** How many rules can still apply. */
  readonly pending: number;
}

/** What an injector needs besides its rules. */
interface FaultSettings {
  /** Decides which requests a `probability` hits, and the delay a range gives each. Default `Math.random`. */
  readonly random?: () => number;
  /** The quota headers of a 429 for this request's caller, waiting `retryAfterSeconds` (see {@link refusalQuotaHeaders}). */
  readonly quotaHeaders?: (request: Request, retryAfterSeconds: number) => Record<string, string>;
}

/** {@link Faults} plus the step that applies them, and the way to end requests they hold. */
export interface FaultInjector extends Faults {
  /**
   * Runs `handle` for `request` after any delay: with no argument, or with the error a rule injects
   * for the API to answer in the operation's place, or {@link connectionReset} for a reset connection.
   */
  apply(request: Request, handle: (injected?: Injected) => Promise<Response>): Promise<Response>;
  /** Ends every request waiting in a delay or a hang with a JSON 503 now, unhandled (so a reset leaves no ghost pet). */
  interrupt(): void;
}

/**
 * `rule` if it is a fault that can work (FaultRuleInJavaScriptSchema), else a TypeError naming
 * each problem, e.g. `faults.inject: status must be an integer from 400 to 599`.
 */
export function checkFaultRule(rule: unknown, what = 'fault'): FaultRule {
  // A misspelt field is named as any misspelt option is, with the field it was probably meant to be.
  if (typeof rule === 'object' && rule !== null && !Array.isArray(rule)) assertKnownOptions(rule, FAULT_RULE_FIELDS, what);
  const result = v.safeParse(FaultRuleInJavaScriptSchema, rule);
  if (result.success) return rule as FaultRule;
  const problems = result.issues.map((issue) => [v.getDotPath(issue), issue.message].filter(Boolean).join(' '));
  throw new TypeError(`${what}: ${problems.join('; ')}`);
}

/**
 * An empty set of fault rules.
 *
 * @example
 * const faults = createFaults();
 * faults.failNext(2, { status: 503, method: 'POST' });
 */
export function createFaults({ random = Math.random, quotaHeaders }: FaultSettings = {}): FaultInjector {
  let rules: { rule: FaultRule; id: string; left: number }[] = [];
  let ids = 0;
  /** Requests held in a delay or a hang: each ends early with the reply it is given. */
  const held = new Set<(reply: Response) => void>();

  const matches = ({ method, path }: FaultRule, request: Request) => {
    if (method && method.toUpperCase() !== request.method) return false;
    if (path === undefined) return true;
    const pathname = pathAndQuery(request.url).path;
    return typeof path === 'string' ? path === pathname : path.test(pathname);
  };
  /** Resolves after `ms`, or with the reply the request is interrupted with. */
  const hold = (ms: number, signal: AbortSignal) =>
    new Promise<Response | undefined>((resolve) => {
      const end = (reply?: Response) => {
        clearTimeout(timer);
        held.delete(end);
        signal.removeEventListener('abort', onAbort);
        resolve(reply);
      };
      const onAbort = () => end(connectionReset());
      const timer = ms === Infinity ? undefined : setTimeout(end, ms);
      held.add(end);
      signal.addEventListener('abort', onAbort);
    });

  const inject = (rule: FaultRule) => {
    checkFaultRule(rule, 'faults.inject');
    const id = `fault-${++ids}`;
    rules.push({ rule, id, left: rule.times === 'always' ? Infinity : (rule.times ?? 1) });
    return id;
  };
  const live = () => rules.filter((entry) => entry.left > 0);

  return {
    inject,
    failNext: (count = 1, rule = {}) => inject({ status: 503, ...rule, times: count }),
    delayNext: (count, ms, rule = {}) => inject({ ...rule, delayMs: ms, times: count }),
    list: () => live().map(({ rule, id, left }) => ({ ...rule, id, left: left === Infinity ? 'always' : left })),
    remove(id) {
      const before = live().length;
      rules = live().filter((entry) => entry.id !== id);
      return rules.length < before;
    },
    clear() {
      rules = [];
    },
    get pending() {
      return live().length;
    },
    interrupt() {
      for (const end of [...held]) end(interruptedReply());
    },
    async apply(request, handle) {
      let delayMs = 0;
      let failure: FaultRule | undefined;
      for (const entry of rules) {
        if (entry.left <= 0 || !matches(entry.rule, request) || random() >= (entry.rule.probability ?? 1)) continue;
        entry.left--;
        const delay = entry.rule.delayMs ?? 0;
        delayMs += typeof delay === 'number' ? delay : between(delay.min, delay.max, random);
        if (entry.rule.status !== undefined || entry.rule.network !== undefined) {
          failure = entry.rule;
          break;
        }
      }
      rules = live();
      const hang = failure?.network === 'hang';
      if (delayMs > 0 || hang) {
        const interrupted = await hold(hang ? Infinity : delayMs, request.signal);
        if (interrupted) return interrupted;
      }
      if (!failure) return handle();
      if (failure.network === 'reset') {
        // Drained, so the request's work is done before its connection is lost.
        if (failure.afterHandling) await (await handle()).arrayBuffer();
        return connectionReset();
      }
      // The API answers the error, so it carries what a real answer there would (quota, route, CORS).
      const quota = failure.status === 429 ? quotaHeaders?.(request, failure.retryAfterSeconds ?? 1) : undefined;
      return handle({ error: faultError(failure, quota), afterHandling: failure.afterHandling === true });
    },
  };
}

/**
 * `handle` behind `faults`: every request meets the rules first (the command's demo flags, without the admin API).
 *
 * @example
 * const handle = withFaults(createHandle(config), faults);
 */
export function withFaults(handle: Handle, faults: FaultInjector): Handle {
  return (request, context) => faults.apply(request, (injected) => handle(request, context, injected));
}
