/** `GET /readyz`: whether every store the API keeps its data in answers, so a load balancer can drain an instance whose database is down. */
import { ApiError } from '../response/api-error.ts';
import { errorReply, type Reply } from '../response/reply.ts';
import type { StoreDatabase } from './database.ts';

/**
 * The longest a store may take to answer before it counts as down: under a load balancer's usual
 * probe timeout, so the probe gets our 503 rather than none.
 */
export const READY_TIMEOUT_MS = 2_000;

/**
 * How long one check's answer is given again: a probe asking every second, or a flood asking
 * thousands of times, costs the databases at most one `SELECT 1` and one `PING` a second.
 *
 * @example
 * const stale = now() - checkedAt >= READY_REUSE_MS;
 */
export const READY_REUSE_MS = 1_000;

/**
 * A store as readiness asks it: what it keeps (`pets`, `rate limits`), where, and how to ask.
 *
 * @example
 * const pets: ReadinessCheck = { keeps: 'pets', database: storage.database, ping: storage.ping?.bind(storage) };
 */
export interface ReadinessCheck {
  readonly keeps: string;
  readonly database?: StoreDatabase | undefined;
  readonly ping?: (() => Promise<void>) | undefined;
}

const READY: Reply = { status: 200, json: '{"status":"ok"}' };

/**
 * 200 when every store with a `ping` answers within {@link READY_TIMEOUT_MS}; else a 503 naming
 * the ones that do not (`Redis (pets, rate limits) does not answer.`). A store in the process has
 * no `ping`: it is ready while the process is.
 *
 * @example
 * const reply = await readiness([{ keeps: 'pets', database, ping }]);
 */
export async function readiness(checks: readonly ReadinessCheck[]): Promise<Reply> {
  const asked = checks.filter((check) => check.ping !== undefined);
  if (asked.length === 0) return READY;
  const answered = await Promise.all(asked.map((check) => answers(check.ping!)));
  const down = new Map<string, string[]>();
  asked.forEach((check, i) => {
    if (answered[i]) return;
    const name = check.database?.name ?? 'The storage';
    down.set(name, [...(down.get(name) ?? []), check.keeps]);
  });
  if (down.size === 0) return READY;
  const named = [...down].map(([name, keeps]) => `${name} (${keeps.join(', ')})`);
  const message = `Not ready: ${named.join(' and ')} ${named.length > 1 ? 'do' : 'does'} not answer.`;
  return errorReply(new ApiError({ status: 503, code: 'service_unavailable', message, headers: { 'Cache-Control': 'no-store' } }), () => {});
}

/**
 * {@link readiness} bounded: a result at most {@link READY_REUSE_MS} old (on `now`, the store's
 * clock) is given again, and callers that come while a check runs share it, so the databases see
 * at most one check in flight and one a second however many callers ask. Its age counts from when
 * it was asked, so no caller gets a result older than that; a clock set back counts it stale.
 *
 * @example
 * const ready = cachedReadiness([{ keeps: 'pets', database, ping }], Date.now);
 * const reply = await ready();
 */
export function cachedReadiness(checks: readonly ReadinessCheck[], now: () => number): () => Promise<Reply> {
  let last: { readonly at: number; readonly reply: Reply } | undefined;
  let running: Promise<Reply> | undefined;
  return () => {
    if (running) return running;
    const at = now();
    if (last && at - last.at >= 0 && at - last.at < READY_REUSE_MS) return Promise.resolve(last.reply);
    const check = readiness(checks).then(
      (reply) => {
        last = { at, reply };
        running = undefined;
        return reply;
      },
      (error: unknown) => {
        running = undefined;
        throw error;
      },
    );
    running = check;
    return check;
  };
}

/** Whether `ping` resolves within the timeout; what it rejects with stays here, as a probe asks often and the 503 already says it. */
async function answers(ping: () => Promise<void>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      ping().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
