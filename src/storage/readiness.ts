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
