/** Plans: the request quotas an API key is entitled to, by name or agreed individually. */

/** The named plans of the spec; an Enterprise plan is its own {@link Quota}. */
type PlanName = 'free' | 'pro' | 'business';

/**
 * Requests admitted per UTC minute and per UTC day: what a plan grants, and an Enterprise plan as it is agreed.
 *
 * @example
 * const enterprise: Quota = { perMinute: 100_000, perDay: 10_000_000 };
 */
export interface Quota {
  /** Requests admitted per UTC minute. */
  readonly perMinute: number;
  /** Requests admitted per UTC day. */
  readonly perDay: number;
}

/**
 * The plan an API key is on: a named plan, or an Enterprise plan's own quota.
 *
 * @example
 * const petstore = createPetStore({ apiKeys: { 'key-a': 'free', 'key-b': { perMinute: 100_000, perDay: 10_000_000 } } });
 */
export type Plan = PlanName | Quota;

/** Quotas of the named plans, from the spec's "Rate limits by plan" table. */
export const PLAN_QUOTAS: Readonly<Record<PlanName, Quota>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

/** The quotas a plan grants. */
export function planQuota(plan: Plan): Quota {
  return typeof plan === 'string' ? PLAN_QUOTAS[plan] : plan;
}

/**
 * Throws a precise `TypeError` unless `plan` is a named plan or positive whole quotas.
 * @param where - Names the offending option in the message.
 */
export function assertPlan(plan: unknown, where: string): asserts plan is Plan {
  if (typeof plan === 'string' && Object.hasOwn(PLAN_QUOTAS, plan)) return;
  if (typeof plan === 'object' && plan !== null) {
    const { perMinute, perDay } = plan as Partial<Quota>;
    if (isQuota(perMinute) && isQuota(perDay)) return;
  }
  throw new TypeError(`${where} must be "free", "pro", "business" or { perMinute, perDay } with positive integers`);
}

const isQuota = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
