/** The command's API keys from `--key` or PETSTORE_API_KEYS: the core's parser, its messages prefixed with where the text came from. */
import { parseApiKeys, type Plan } from '../src/index.ts';

/**
 * The keys and plans in `text` (comma-separated `KEY:PLAN` entries), or an Error naming `from`
 * (`--key` or `PETSTORE_API_KEYS`) and the first bad entry by its position, as {@link parseApiKeys} words it.
 *
 * @example
 * readApiKeys('k1:free,k2:enterprise:100000:10000000', '--key'); // Map { k1 → 'free', k2 → { perMinute: 100000, perDay: 10000000 } }
 * readApiKeys('nocolon', '--key'); // throws: --key: API key entry 1: no ":plan" after the key; write KEY:PLAN, e.g. my-key:free (…)
 */
export function readApiKeys(text: string, from: string): Map<string, Plan> {
  try {
    return parseApiKeys(text);
  } catch (error) {
    throw new Error(`${from}: ${(error as Error).message}`);
  }
}
