/** Plans (request quotas) and API keys: their types, defaults and the `key:plan` text form. */

/** The named plans of the spec; Enterprise is a {@link CustomPlan}. */
export type PlanName = 'free' | 'pro' | 'business';

/** An Enterprise plan: quotas agreed individually. */
export interface CustomPlan {
  /** Requests admitted per UTC minute. */
  readonly perMinute: number;
  /** Requests admitted per UTC day. */
  readonly perDay: number;
}

/** The quota an API key is entitled to. */
export type Plan = PlanName | CustomPlan;

/** Quotas of the named plans, from the spec's "Rate limits by plan" table. */
export const PLAN_QUOTAS: Readonly<Record<PlanName, CustomPlan>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

/** The quotas a plan grants. */
export function planQuota(plan: Plan): CustomPlan {
  return typeof plan === 'string' ? PLAN_QUOTAS[plan] : plan;
}

/** API keys are RFC 6750 `b64token`s, so they fit a `Bearer` header unchanged. */
export const API_KEY_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Throws a precise `TypeError` unless `plan` is a named plan or positive whole quotas.
 * @param where - Names the offending option in the message.
 */
export function assertPlan(plan: unknown, where: string): asserts plan is Plan {
  if (typeof plan === 'string' && Object.hasOwn(PLAN_QUOTAS, plan)) return;
  if (typeof plan === 'object' && plan !== null) {
    const { perMinute, perDay } = plan as Partial<CustomPlan>;
    if (isQuota(perMinute) && isQuota(perDay)) return;
  }
  throw new TypeError(
    `${where} must be "free", "pro", "business" or { perMinute, perDay } with positive integers`,
  );
}

const isQuota = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;

/**
 * Parses the `PETSTORE_API_KEYS` format: comma-separated `key:plan`, where plan is `free`,
 * `pro`, `business` or `enterprise:PER_MINUTE:PER_DAY`. Throws a `TypeError` naming the
 * entry by position (never echoing the key) when an entry is malformed.
 *
 * @example
 * parseApiKeys('k1:free,k2:enterprise:100000:10000000');
 * // Map { 'k1' => 'free', 'k2' => { perMinute: 100000, perDay: 10000000 } }
 */
export function parseApiKeys(text: string): Map<string, Plan> {
  const keys = new Map<string, Plan>();
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  entries.forEach((entry, index) => {
    const [key = '', name, ...quotas] = entry.split(':');
    const where = `API key entry ${index + 1}`;
    if (!API_KEY_PATTERN.test(key)) throw new TypeError(`${where}: the key must be a non-empty bearer token`);
    if (keys.has(key)) throw new TypeError(`${where}: the key is listed twice`);
    let plan: unknown = name;
    if (name === 'enterprise') {
      const [perMinute, perDay] = quotas.map((q) => (/^[0-9]+$/.test(q) ? Number(q) : NaN));
      plan = quotas.length === 2 ? { perMinute, perDay } : undefined;
    } else if (quotas.length > 0) {
      plan = undefined;
    }
    assertPlan(plan, `${where}: the plan (free, pro, business or enterprise:PER_MINUTE:PER_DAY)`);
    keys.set(key, plan);
  });
  return keys;
}
