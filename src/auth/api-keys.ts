/** API keys as configured: the `apiKeys` option, and the `key:plan` text of PETSTORE_API_KEYS and --key. */
import { assertPlan, type Plan } from '../limits/plans.ts';

/** API keys are RFC 6750 `b64token`s, so they fit a `Bearer` header unchanged. */
const API_KEY_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The plans as `key:plan` text writes them. */
const PLANS = 'free, pro, business or enterprise:PER_MINUTE:PER_DAY';
const WRITE_IT = 'write KEY:PLAN, e.g. my-key:free';

/** The plan `text` names, or what is wrong with it (in the words of the text format, not of the option). */
function planOf(text: string): { plan: Plan } | { problem: string } {
  if (text === 'free' || text === 'pro' || text === 'business') return { plan: text };
  if (text !== 'enterprise' && !text.startsWith('enterprise:')) return { problem: `an unknown plan; plans: ${PLANS}` };
  const [perMinute, perDay, ...more] = text
    .split(':')
    .slice(1)
    .map((quota) => (/^[0-9]+$/.test(quota) ? Number(quota) : Number.NaN));
  const isQuota = (n: number | undefined): n is number => n !== undefined && Number.isSafeInteger(n) && n > 0;
  if (more.length === 0 && isQuota(perMinute) && isQuota(perDay)) return { plan: { perMinute, perDay } };
  return { problem: 'an enterprise plan is enterprise:PER_MINUTE:PER_DAY, two whole numbers above 0, e.g. enterprise:100000:10000000' };
}

/**
 * Parses the `PETSTORE_API_KEYS` format: comma-separated `key:plan`, where plan is `free`,
 * `pro`, `business` or `enterprise:PER_MINUTE:PER_DAY`. Throws a `TypeError` naming the
 * entry by position and what is wrong (a missing `:plan`, an unknown plan, a key given twice),
 * never echoing a key or a plan, which may be a key written in the wrong place.
 *
 * @example
 * parseApiKeys('k1:free,k2:enterprise:100000:10000000');
 * // Map { 'k1' => 'free', 'k2' => { perMinute: 100000, perDay: 10000000 } }
 * parseApiKeys('nocolon'); // TypeError: API key entry 1: no ":plan" after the key; write KEY:PLAN, e.g. my-key:free (plans: …)
 */
export function parseApiKeys(text: string): Map<string, Plan> {
  const keys = new Map<string, Plan>();
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const positions = new Map<string, number>();
  entries.forEach((entry, index) => {
    const fail = (problem: string) => new TypeError(`API key entry ${index + 1}: ${problem}`);
    const colon = entry.indexOf(':');
    if (colon < 0) throw fail(`no ":plan" after the key; ${WRITE_IT} (plans: ${PLANS})`);
    const key = entry.slice(0, colon);
    if (key === '') throw fail(`no key before the ":"; ${WRITE_IT}`);
    if (!API_KEY_PATTERN.test(key)) throw fail('the key may hold only letters, digits and - . _ ~ + / (it is sent in a Bearer header)');
    const first = positions.get(key);
    if (first !== undefined) throw fail(`the same key as entry ${first}; give each key once`);
    const named = planOf(entry.slice(colon + 1));
    if ('problem' in named) throw fail(named.problem);
    positions.set(key, index + 1);
    keys.set(key, named.plan);
  });
  return keys;
}

/** The API keys of the `apiKeys` option: a record or a Map from key to plan. */
export type ApiKeys = Readonly<Record<string, Plan>> | ReadonlyMap<string, Plan>;

/**
 * The `[key, plan]` pairs of `apiKeys`, whether it is a record or a Map; a TypeError for anything
 * else, such as the `key:plan` text of PETSTORE_API_KEYS (or an array of it), pointing at parseApiKeys.
 *
 * @example
 * apiKeyEntries({ 'my-key': 'free' }); // [['my-key', 'free']]
 * apiKeyEntries(['my-key:free'] as never); // TypeError: apiKeys must be an object from key to plan, …
 */
export function apiKeyEntries(apiKeys: ApiKeys = {}): [string, Plan][] {
  if (apiKeys instanceof Map) return [...apiKeys];
  if (typeof apiKeys !== 'object' || apiKeys === null || Array.isArray(apiKeys)) {
    throw new TypeError(
      "apiKeys must be an object from key to plan, like { 'my-key': 'free' }, or a Map; for key:plan text (as PETSTORE_API_KEYS holds), pass parseApiKeys('my-key:free')",
    );
  }
  return Object.entries(apiKeys);
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
