/** The command's API keys from `--key` or PETSTORE_API_KEYS, each mistake named in the terms of the command line (`KEY:PLAN`), never echoing a key. */
import { parseApiKeys, type Plan } from '../src/index.ts';

/** The plans as they are written on the command line. */
const PLANS = 'free, pro, business or enterprise:PER_MINUTE:PER_DAY';
/** The characters of a bearer token (RFC 6750 b64token), which a key must fit in. */
const KEY_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** What is wrong with one `KEY:PLAN` entry, or `undefined`; `seen` holds the keys of the entries before it. */
function entryProblem(entry: string, seen: Map<string, number>, example: string): string | undefined {
  const colon = entry.indexOf(':');
  if (colon < 0) return `no ":plan" after the key; write KEY:PLAN, e.g. ${example} (plans: ${PLANS})`;
  const key = entry.slice(0, colon);
  const plan = entry.slice(colon + 1);
  if (key === '') return `no key before the ":"; write KEY:PLAN, e.g. ${example}`;
  if (!KEY_PATTERN.test(key)) return 'the key may hold only letters, digits and - . _ ~ + / (it is sent in a Bearer header)';
  const first = seen.get(key);
  if (first !== undefined) return `the same key as entry ${first}; give each key once`;
  if (plan === 'free' || plan === 'pro' || plan === 'business') return undefined;
  if (plan === 'enterprise' || plan.startsWith('enterprise:')) {
    const quotas = plan.split(':').slice(1);
    if (quotas.length === 2 && quotas.every((quota) => /^[0-9]+$/.test(quota) && Number.isSafeInteger(Number(quota)) && Number(quota) > 0)) {
      return undefined;
    }
    return 'an enterprise plan is enterprise:PER_MINUTE:PER_DAY, two whole numbers above 0, e.g. enterprise:100000:10000000';
  }
  // Not the plan itself: a key and plan written the wrong way round would put the key here.
  return `an unknown plan; plans: ${PLANS}`;
}

/**
 * The keys and plans in `text` (comma-separated `KEY:PLAN` entries), or an Error naming the first
 * bad entry by its position and `from` (`--key` or `PETSTORE_API_KEYS`): a missing `:plan`, an
 * unknown plan, a key given twice. The core's {@link parseApiKeys} reads what passes.
 *
 * @example
 * readApiKeys('k1:free,k2:enterprise:100000:10000000', '--key'); // Map { k1 → 'free', k2 → { perMinute: 100000, perDay: 10000000 } }
 * readApiKeys('nocolon', '--key'); // throws: --key: API key entry 1: no ":plan" after the key; write KEY:PLAN, e.g. --key my-key:free (…)
 */
export function readApiKeys(text: string, from: string): Map<string, Plan> {
  const example = from === '--key' ? '--key my-key:free' : `${from}=my-key:free`;
  const seen = new Map<string, number>();
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .forEach((entry, index) => {
      const problem = entryProblem(entry, seen, example);
      if (problem) throw new Error(`${from}: API key entry ${index + 1}: ${problem}`);
      seen.set(entry.slice(0, entry.indexOf(':')), index + 1);
    });
  try {
    return parseApiKeys(text);
  } catch (error) {
    throw new Error(`${from}: ${(error as Error).message}`);
  }
}
