/** A sandbox's id, API keys and selector: random, and shaped so a key names its sandbox and any text holding a key or a selector can be redacted without a list of them. */

/** The plans a sandbox has a key for. */
export const SANDBOX_PLANS = ['free', 'pro', 'business'] as const;

/**
 * A sandbox's keys, one per plan.
 *
 * @example
 * const { keys }: { keys: SandboxKeys } = await petstore.sandbox();
 * await fetch(url, { headers: { authorization: `Bearer ${keys.pro}` } });
 */
export type SandboxKeys = { readonly [plan in (typeof SANDBOX_PLANS)[number]]: string };

/**
 * Every sandbox key, wherever it appears in a text (`psbx_<id>_<plan>_<secret>`): the journal and the
 * access log redact what it matches, and the Workers fake backend reads the id to find the sandbox's object.
 */
export const SANDBOX_KEY_PATTERN = /psbx_[0-9a-z]{12}_(?:free|pro|business)_[A-Za-z0-9_-]{32}/g;

/**
 * Every sandbox selector, wherever it appears in a text (`pssel_<secret>`): the journal, the access
 * log and telemetry's path redact what it matches, as they do sandbox keys.
 */
export const SANDBOX_SELECTOR_PATTERN = /pssel_[A-Za-z0-9_-]{32}/g;

/** One whole sandbox key, its sandbox's id captured. */
const SANDBOX_KEY = /^psbx_([0-9a-z]{12})_(?:free|pro|business)_[A-Za-z0-9_-]{32}$/;

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `length` characters of `alphabet` (64 or fewer letters), from crypto.getRandomValues: every runtime has it. */
function randomText(alphabet: string, length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 36 does not divide 256: the first letters are a little likelier, which costs an id under 0.1 bit of its 62.
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * A new sandbox id: 12 lower-case letters and digits, safe in a path and a Durable Object name.
 *
 * @example
 * const id = newSandboxId(); // 'k3j9x2m1qa0b'
 */
export function newSandboxId(): string {
  return randomText(ID_ALPHABET, 12);
}

/**
 * New keys for the sandbox `id`, each with 192 random bits.
 *
 * @example
 * newSandboxKeys('k3j9x2m1qa0b').free; // 'psbx_k3j9x2m1qa0b_free_…'
 */
export function newSandboxKeys(id: string): SandboxKeys {
  const key = (plan: string) => `psbx_${id}_${plan}_${randomText(SECRET_ALPHABET, 32)}`;
  return { free: key('free'), pro: key('pro'), business: key('business') };
}

/**
 * The sandbox id a key names, or `undefined` for a key that is not a sandbox's (a configured key,
 * or none): where a request is sent. Whether the key is real is for that sandbox to say.
 *
 * @example
 * sandboxIdOf('psbx_0a1b2c3d4e5f_free_…'); // '0a1b2c3d4e5f'
 */
export function sandboxIdOf(key: string | undefined): string | undefined {
  return key?.startsWith('psbx_') ? SANDBOX_KEY.exec(key)?.[1] : undefined;
}

/**
 * A new sandbox selector: `pssel_` and 32 base64url characters, 192 bits from
 * crypto.getRandomValues, all of them token characters (RFC 9110) and W3C baggage-octets, so it
 * travels as it is in a `Petstore-Sandbox` header and as the `petstore.sandbox` member of `baggage`.
 * A secret: whoever holds it reaches the sandbox with a key of the main world.
 *
 * @example
 * const selector = newSandboxSelector(); // 'pssel_Xq3…'
 */
export function newSandboxSelector(): string {
  return `pssel_${randomText(SECRET_ALPHABET, 32)}`;
}
