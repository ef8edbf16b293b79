/** Faults in front of the request path: failures and delays for testing clients' retry logic (the test kit, the CLI's demo flags). */
import type { Handle } from './pet-store.ts';
import { ApiError } from './response/api-error.ts';
import { errorReply, render } from './response/reply.ts';

/** One fault to inject. */
export interface FaultRule {
  /** Answer with this status instead of the API: 500 `internal_error` or 503 `service_unavailable`. */
  readonly status?: 500 | 503;
  /** Wait this many real milliseconds first (to exercise client timeouts). */
  readonly delayMs?: number;
  /** How many matching requests it applies to. Default 1; `Infinity` until {@link Faults.clear}. */
  readonly times?: number;
  /** Share of matching requests it hits, 0..1. Default 1. */
  readonly rate?: number;
  /** Only requests with this method. */
  readonly method?: string;
  /** Only requests whose path equals this string or matches this pattern, e.g. `/v1/pets`. */
  readonly path?: string | RegExp;
  /**
   * Handle the request first and then answer the fault, as when a response is lost after the
   * server committed. This is how a retried create without an Idempotency-Key makes a duplicate.
   */
  readonly afterHandling?: boolean;
  /** `Retry-After` seconds on a 503. Default 1. */
  readonly retryAfterSeconds?: number;
}

/** The faults waiting to hit requests. */
export interface Faults {
  /** Adds a rule. Every matching rule adds its delay; the first matching failure answers. */
  inject(rule: FaultRule): void;
  /** The next `count` requests (matching `rule`) answer `status` (default 503). */
  failNext(count?: number, rule?: Omit<FaultRule, 'times'>): void;
  /** The next `count` requests (matching `rule`) wait `ms` real milliseconds first. */
  delayNext(count: number, ms: number, rule?: Omit<FaultRule, 'times' | 'delayMs'>): void;
  /** Removes every rule. */
  clear(): void;
  /** Rules that can still apply. */
  readonly pending: number;
}

/** {@link Faults} plus the step that applies them to a request. */
interface FaultInjector extends Faults {
  /** Runs `handle` for `request`, unless a rule answers instead (after any delay). */
  apply(request: Request, handle: () => Promise<Response>): Promise<Response>;
}

/**
 * An empty set of fault rules; `random` decides which requests a `rate` hits.
 *
 * @example
 * const faults = createFaults();
 * faults.failNext(2, { status: 503, method: 'POST' });
 */
export function createFaults(random: () => number = Math.random): FaultInjector {
  const rules: { rule: FaultRule; left: number }[] = [];
  const matches = ({ method, path }: FaultRule, request: Request) => {
    const pathname = new URL(request.url).pathname;
    if (method && method.toUpperCase() !== request.method) return false;
    if (path === undefined) return true;
    return typeof path === 'string' ? path === pathname : path.test(pathname);
  };

  const inject = (rule: FaultRule) => void rules.push({ rule, left: rule.times ?? 1 });

  return {
    inject,
    failNext: (count = 1, rule = {}) => inject({ status: 503, ...rule, times: count }),
    delayNext: (count, ms, rule = {}) => inject({ ...rule, delayMs: ms, times: count }),
    clear() {
      rules.length = 0;
    },
    get pending() {
      return rules.filter((r) => r.left > 0).length;
    },
    async apply(request, handle) {
      let delayMs = 0;
      let failure: FaultRule | undefined;
      for (const entry of rules) {
        if (entry.left <= 0 || !matches(entry.rule, request) || random() >= (entry.rule.rate ?? 1)) continue;
        entry.left--;
        delayMs += entry.rule.delayMs ?? 0;
        if (entry.rule.status !== undefined) {
          failure = entry.rule;
          break;
        }
      }
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (!failure) return handle();
      const { status, afterHandling = false, retryAfterSeconds = 1 } = failure;
      if (afterHandling) await (await handle()).arrayBuffer();
      const error =
        status === 503
          ? new ApiError({
              status: 503,
              code: 'service_unavailable',
              message: 'Injected fault: the service is unavailable.',
              headers: { 'Retry-After': String(retryAfterSeconds) },
            })
          : new ApiError({ status: 500, code: 'internal_error', message: 'Injected fault: the server failed.' });
      return render(errorReply(error, () => {}));
    },
  };
}

/** `handle` behind `faults`: every request meets the rules first. */
export function withFaults(handle: Handle, faults: FaultInjector): Handle {
  return (request, context) => faults.apply(request, () => handle(request, context));
}
