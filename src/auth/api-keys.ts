/** API keys as configured: the `apiKeys` option, and the `key:plan` text of PETSTORE_API_KEYS and --key. */
import { assertPlan, type Plan } from '../limits/plans.ts';

/** API keys are RFC 6750 `b64token`s, so they fit a `Bearer` header unchanged. */
const API_KEY_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;

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
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
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

/** The API keys of the `apiKeys` option: a record or a Map from key to plan. */
export type ApiKeys = Readonly<Record<string, Plan>> | ReadonlyMap<string, Plan>;

/** The `[key, plan]` pairs of `apiKeys`, whether it is a record or a Map. */
export function apiKeyEntries(apiKeys: ApiKeys = {}): [string, Plan][] {
  return apiKeys instanceof Map ? [...apiKeys] : Object.entries(apiKeys);
}

/** `apiKeys` as a Map, or a `TypeError` naming the first bad entry by position (keys are secrets: never echoed). */
export function resolveApiKeys(apiKeys: ApiKeys | undefined): ReadonlyMap<string, Plan> {
  const keys = new Map<string, Plan>();
  apiKeyEntries(apiKeys).forEach(([key, plan], index) => {
    if (typeof key !== 'string' || !API_KEY_PATTERN.test(key)) {
      throw new TypeError(`apiKeys entry ${index + 1}: a key must be a bearer token (letters, digits, -._~+/)`);
    }
    assertPlan(plan, `apiKeys entry ${index + 1}: the plan`);
    keys.set(key, plan);
  });
  return keys;
}
