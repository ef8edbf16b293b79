/** Secrets out of what is kept: configured keys, sandbox keys (by their shape) and the admin token, however spelled, become `[redacted]` in the journal and the access log. */
import { SANDBOX_PLANS } from './sandbox-keys.ts';

/**
 * What a secret is replaced with.
 *
 * @example
 * redactSecrets(['my-key'])('/v1/pets?key=my-key'); // `/v1/pets?key=${REDACTED}`
 */
export const REDACTED = '[redacted]';

const UTF8 = new TextEncoder();

/** Two hex digits as a pattern taking either case of their letters (`%2f` and `%2F` are one byte). */
const hexPattern = (byte: number) =>
  [...byte.toString(16).toUpperCase().padStart(2, '0')].map((digit) => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit)).join('');

/** One character as a pattern: itself, or its UTF-8 bytes percent-encoded (`%C3%A9` for `é`). */
function characterPattern(character: string): string {
  const encoded = [...UTF8.encode(character)].map((byte) => `%${hexPattern(byte)}`).join('');
  return `(?:${character.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}|${encoded})`;
}

/** Any one of `characters` (ASCII), as typed or percent-encoded. */
function oneOfPattern(characters: string): string {
  return `(?:[${characters.replace(/[\]\\^-]/g, '\\$&')}]|%(?:${[...characters].map((c) => hexPattern(c.charCodeAt(0))).join('|')}))`;
}

const ID_CHARACTERS = '0123456789abcdefghijklmnopqrstuvwxyz';
const SECRET_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const spelled = (text: string) => [...text].map(characterPattern).join('');

/**
 * A sandbox key as SANDBOX_KEY_PATTERN (sandbox-keys.ts) has it, each character also percent-encoded:
 * a sandbox key is redacted by its shape, with no list of the sandboxes.
 */
const SANDBOX_KEY_SPELLINGS =
  `${spelled('psbx_')}${oneOfPattern(ID_CHARACTERS)}{12}${spelled('_')}` +
  `(?:${SANDBOX_PLANS.map(spelled).join('|')})${spelled('_')}${oneOfPattern(SECRET_CHARACTERS)}{32}`;

/** The shortest text a sandbox key can be: `psbx_`, its id, `_`, the shortest plan, `_`, its 32-character secret. */
const SHORTEST_SANDBOX_KEY = 5 + 12 + 1 + Math.min(...SANDBOX_PLANS.map((plan) => plan.length)) + 1 + 32;

/**
 * A function that replaces every spelling of each of `secrets` (as typed, or with any of its
 * characters percent-encoded in either case of hex digits) and of any sandbox key with
 * {@link REDACTED}. Empty secrets are ignored.
 *
 * @example
 * const redact = redactSecrets(['my-key-0123', 'admin-token-0123456789']);
 * redact('/v1/pets?key=my%2Dkey-0123'); // '/v1/pets?key=[redacted]'
 */
export function redactSecrets(secrets: Iterable<string>): (text: string) => string {
  const listed = [...new Set(secrets)].filter((secret) => secret !== '');
  // Longest first, so a secret that contains another is replaced whole.
  const spellings = listed.sort((a, b) => b.length - a.length).map(spelled);
  const pattern = new RegExp([...spellings, SANDBOX_KEY_SPELLINGS].join('|'), 'g');
  // Any spelling of a secret is at least as long as the secret (percent-encoding only lengthens
  // it), so a shorter text holds none: most paths (`/v1/pets`) skip the pattern (~1 µs of a logged GET).
  const shortest = Math.min(SHORTEST_SANDBOX_KEY, ...listed.map((secret) => secret.length));
  return (text) => (text.length < shortest ? text : text.replace(pattern, REDACTED));
}
