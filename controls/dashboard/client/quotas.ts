/** The quotas the dashboard shows: what the newest answer of each world and plan said in its X-RateLimit-* headers. */
import type { Row } from './journal-rows.ts';

/**
 * A plan's quota in one world as its newest journaled answer told it: the binding window's limit,
 * what was left, when it resets (Unix seconds as sent) and the policy of all its windows.
 *
 * @example
 * const quota: QuotaSeen = { world: 'main', plan: 'free', limit: '60', remaining: '59', reset: '1767225660', policy: '"minute";q=60;w=60' };
 */
export interface QuotaSeen {
  readonly world: string;
  readonly plan: string;
  readonly limit: string;
  readonly remaining: string;
  readonly reset: string;
  readonly policy: string;
}

/**
 * The newest quota each world's plans were told, from `rows` (newest first): one per world and
 * plan, from the newest answer that carried `X-RateLimit-Limit`. The quota is counted per key, so
 * two keys of one plan show as whichever answered last.
 *
 * @example
 * quotasSeen(rows); // [{ world: 'main', plan: 'free', limit: '60', remaining: '57', … }]
 */
export function quotasSeen(rows: readonly Row[]): QuotaSeen[] {
  const seen = new Map<string, QuotaSeen>();
  for (const { sandbox, exchange } of rows) {
    const headers = exchange.responseHeaders;
    const limit = headers['x-ratelimit-limit'];
    if (limit === undefined) continue;
    const world = sandbox ?? 'main';
    // No plan: a request without a valid key, counted by its address.
    const plan = exchange.plan ?? 'no key';
    const key = `${world} ${plan}`;
    if (seen.has(key)) continue;
    seen.set(key, {
      world,
      plan,
      limit,
      remaining: headers['x-ratelimit-remaining'] ?? '',
      reset: headers['x-ratelimit-reset'] ?? '',
      policy: headers['ratelimit-policy'] ?? '',
    });
  }
  return [...seen.values()];
}
