/** Secrets out of what is kept: configured keys, sandbox keys and selectors (by their shape) and the admin token, however spelled, become `[redacted]` in the journal and the access log. */
import { decodings, lastRun, replaceRuns } from './redaction-base64.ts';
import { SANDBOX_KEY_PATTERN, SANDBOX_PLANS, SANDBOX_SELECTOR_PATTERN } from './sandbox-keys.ts';

/**
 * What a secret is replaced with.
 *
 * @example
 * redactSecrets(['my-key'])('/v1/pets?key=my-key'); // `/v1/pets?key=${REDACTED}`
 */
export const REDACTED = '[redacted]';

/**
 * A redaction: called on a text, every spelling of every secret in it replaced with {@link REDACTED}.
 *
 * @example
 * const redact: Redactor = redactSecrets(['my-key-0123']);
 * redact.cutShort('{"name":"my-key-01'); // '{"name":"[redacted]'
 */
export interface Redactor {
  (text: string): string;
  /**
   * `text` cut short (a body kept to the body limit): redacted, and its tail too when that tail is
   * the start of a secret in any spelling, so a secret cut in two leaves none of its characters.
   */
  cutShort(text: string): string;
}

const UTF8 = new TextEncoder();

/** `value` as `digits` hex digits, each letter in either case (`%2f` and `%2F` are one byte). */
const hexPattern = (value: number, digits: number) =>
  [...value.toString(16).toUpperCase().padStart(digits, '0')].map((digit) => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit)).join('');

/** A byte percent-encoded once or more: `%41`, `%2541` (the `%` itself encoded), `%252541`. */
const percentPattern = (byte: number) => `%(?:25)*${hexPattern(byte, 2)}`;

/** A UTF-16 code unit as a JSON escape: `\u006d`. */
const jsonPattern = (unit: number) => `\\\\u${hexPattern(unit, 4)}`;

/**
 * One character as a pattern, in every spelling: itself in any letter case (a header name comes
 * lower-cased), its UTF-8 bytes percent-encoded once or more, or its JSON escape.
 */
function characterPattern(character: string): string {
  const forms = [...new Set([character, character.toLowerCase(), character.toUpperCase()])].filter((form) => [...form].length === 1);
  const spellings = forms.flatMap((form) => [
    form.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'),
    [...UTF8.encode(form)].map(percentPattern).join(''),
    [...form].map((unit) => jsonPattern(unit.charCodeAt(0))).join(''),
  ]);
  return `(?:${[...spellings, ...(character === '/' ? ['\\\\/'] : [])].join('|')})`;
}

/** Any one of `characters` (ASCII), typed, percent-encoded or JSON-escaped. */
function oneOfPattern(characters: string): string {
  const codes = [...characters].map((c) => c.charCodeAt(0));
  return `(?:[${characters.replace(/[\]\\^-]/g, '\\$&')}]|%(?:25)*(?:${codes.map((code) => hexPattern(code, 2)).join('|')})|\\\\u00(?:${codes.map((code) => hexPattern(code, 2)).join('|')}))`;
}

/** A run of one pattern: `count` characters, each a `token`. */
interface Unit {
  readonly token: string;
  readonly count: number;
}

const units = (text: string): Unit[] => [...text].map((character) => ({ token: characterPattern(character), count: 1 }));

/**
 * `gap` is what may stand between two characters: nothing, or NULs (`\x00*`) for a UTF-16 text
 * read as UTF-8 (`m\0y\0-\0k\0…`).
 */
const full = (sequence: readonly Unit[], gap: string) =>
  sequence.map(({ token, count }) => (count === 1 ? token : `(?:${token}${gap}){${count - 1}}${token}`)).join(gap);

/** Any start of `sequence`, one character or more (`m`, `my-k`, or all of it). */
function prefix(sequence: readonly Unit[], gap: string, from = 0): string {
  const { token, count } = sequence[from]!;
  const rest = from + 1 < sequence.length ? `(?:${gap}${prefix(sequence, gap, from + 1)})?` : '';
  const some = count === 1 ? '' : `(?:${token}${gap}){0,${count - 2}}${token}|`;
  return `(?:${some}${full([{ token, count }], gap)}${rest})`;
}

const ID_CHARACTERS = '0123456789abcdefghijklmnopqrstuvwxyz';
const SECRET_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A sandbox key as SANDBOX_KEY_PATTERN (sandbox-keys.ts) has it, `plan` being the plan's units. */
const sandboxKey = (plan: readonly Unit[]): Unit[] => [
  ...units('psbx_'),
  { token: oneOfPattern(ID_CHARACTERS), count: 12 },
  ...units('_'),
  ...plan,
  ...units('_'),
  { token: oneOfPattern(SECRET_CHARACTERS), count: 32 },
];

/** A sandbox selector as SANDBOX_SELECTOR_PATTERN (sandbox-keys.ts) has it. */
const SANDBOX_SELECTOR: readonly Unit[] = [...units('pssel_'), { token: oneOfPattern(SECRET_CHARACTERS), count: 32 }];

/** NULs between two characters: a UTF-16 text read as UTF-8 (`m\0y\0-\0k\0…`). */
const NUL = '\\x00*';

/** What `make` makes, made on the first call only: patterns no text has needed yet cost nothing. */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/**
 * Every sandbox key and selector, in every spelling, without (`''`) or with NULs between
 * characters: they are redacted by their shape, with no list of the sandboxes.
 */
const SANDBOX_KEYS = new Map(
  ['', NUL].map((gap) => [
    gap,
    lazy(() => {
      const plans = `(?:${SANDBOX_PLANS.map((plan) => full(units(plan), gap)).join('|')})`;
      return `${full(sandboxKey([{ token: plans, count: 1 }]), gap)}|${full(SANDBOX_SELECTOR, gap)}`;
    }),
  ]),
);
/** Any start of a sandbox key or selector, in every spelling, likewise. */
const SANDBOX_KEY_STARTS = new Map(
  ['', NUL].map((gap) => [gap, lazy(() => [...SANDBOX_PLANS.map((plan) => prefix(sandboxKey(units(plan)), gap)), prefix(SANDBOX_SELECTOR, gap)].join('|'))]),
);

/** The shortest text a sandbox key or selector can be: the selector, `pssel_` and its 32-character secret. */
const SHORTEST_SANDBOX_KEY = 6 + 32;
/** The length of a sandbox key with a plan three letters longer than the shortest, the longest the tail is searched for. */
const LONG_SANDBOX_KEY = 5 + 12 + 1 + Math.min(...SANDBOX_PLANS.map((plan) => plan.length)) + 1 + 32 + 3;

/** A spelling cut inside one character: `%`, `%6`, `%25`, `%256`, `\`, `\u00`. */
const PARTIAL = '(?:%(?:25)*[0-9A-Fa-f]?|\\\\(?:u[0-9A-Fa-f]{0,3})?)?';
/** How far from its end a cut text is searched for the start of a secret, per character of the longest one. */
const TAIL_PER_CHARACTER = 24;

/** The patterns of one list of secrets, built once per change of the list. */
interface Compiled {
  readonly shortest: number;
  /** Each secret, and any sandbox key, in every spelling; and with NULs between characters, made when first needed. */
  readonly plain: RegExp;
  readonly nul: () => RegExp;
  /** Each secret, and any sandbox key, as typed: what base64 is decoded and searched for. */
  readonly typed: RegExp;
  /** The start of a secret at the end of a text; and with NULs between characters. Made when first needed. */
  readonly tail: () => RegExp;
  readonly nulTail: () => RegExp;
  readonly tailLength: number;
  /** The shortest run of base64 that can carry a secret. */
  readonly run: number;
}

function compile(secrets: readonly string[]): Compiled {
  // Longest first, so a secret that contains another is replaced whole.
  const listed = [...new Set(secrets)].filter((secret) => secret !== '').sort((a, b) => b.length - a.length);
  const sequences = listed.map(units);
  const pattern = (gap: string) => new RegExp([...sequences.map((sequence) => full(sequence, gap)), SANDBOX_KEYS.get(gap)!()].join('|'), 'g');
  const tail = (gap: string) =>
    new RegExp(`(?:${[...sequences.map((sequence) => prefix(sequence, gap)), SANDBOX_KEY_STARTS.get(gap)!()].join('|')})${gap}${PARTIAL}$`);
  // Any spelling of a secret is at least as long as the secret (each spelling only lengthens it), so
  // a shorter text holds none: most paths (`/v1/pets`) skip the patterns (BENCHMARKS.md, Findings).
  const shortest = Math.min(SHORTEST_SANDBOX_KEY, ...listed.map((secret) => secret.length));
  const longest = Math.max(LONG_SANDBOX_KEY, ...listed.map((secret) => secret.length));
  // Decoded base64 is searched for the secrets as typed only: a literal pattern, far cheaper than every spelling (BENCHMARKS.md, Findings).
  const typed = new RegExp(
    [...listed.map((secret) => secret.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')), SANDBOX_KEY_PATTERN.source, SANDBOX_SELECTOR_PATTERN.source].join('|'),
  );
  return {
    shortest,
    plain: pattern(''),
    nul: lazy(() => pattern(NUL)),
    typed,
    tail: lazy(() => tail('')),
    nulTail: lazy(() => tail(NUL)),
    tailLength: longest * TAIL_PER_CHARACTER,
    run: Math.floor((shortest * 4) / 3),
  };
}

/** `text` with every secret in it replaced: typed or escaped, and as UTF-16 when it has NULs (a UTF-8 text has none). */
function replaced(compiled: Compiled, text: string): string {
  const out = text.replace(compiled.plain, REDACTED);
  return out.includes('\0') ? out.replace(compiled.nul(), REDACTED) : out;
}

/** Whether `text` ends with the start of a secret: the tail that does, or `null`. */
function startAtEnd(compiled: Compiled, text: string): RegExpExecArray | null {
  const end = text.length > compiled.tailLength ? text.slice(-compiled.tailLength) : text;
  return compiled.tail().exec(end) ?? (end.includes('\0') ? compiled.nulTail().exec(end) : null);
}

/** `text` without its last `length` characters, {@link REDACTED} in their place. */
const cutAt = (text: string, length: number) => `${text.slice(0, text.length - length)}${REDACTED}`;

/**
 * A {@link Redactor} of every spelling of each of `lists`' secrets (typed in any letter case, with
 * any of its characters percent-encoded once or more or JSON-escaped, between NULs as UTF-16 read
 * as UTF-8, or inside base64) and of any sandbox key or selector. Empty secrets are ignored.
 *
 * @example
 * const redact = redactSecrets(['my-key-0123', 'admin-token-0123456789']);
 * redact('/v1/pets?key=my%2Dkey-0123'); // '/v1/pets?key=[redacted]'
 */
export function redactSecrets(...lists: Iterable<string>[]): Redactor {
  const compiled = compile(lists.flatMap((list) => [...list]));
  // A secret inside base64 is found by decoding the run: the whole run goes, as it carried the secret.
  const carries = (run: string) => decodings(run).some((text) => compiled.typed.test(text));

  const redact = (text: string) => {
    if (text.length < compiled.shortest) return text;
    return replaceRuns(replaced(compiled, text), compiled.run, carries, REDACTED);
  };
  const cutShort = (text: string) => {
    const redacted = redact(text);
    const start = startAtEnd(compiled, redacted);
    if (start) return cutAt(redacted, start[0].length);
    // A cut credential (`Basic dXNlcjpteS1r`): its run decodes to a text that ends with the start of a secret.
    const run = lastRun(redacted);
    const cutInside = run.length >= 8 && decodings(run).some((decoded) => (startAtEnd(compiled, decoded)?.[0].length ?? 0) >= 3);
    return cutInside ? cutAt(redacted, run.length) : redacted;
  };
  return Object.assign(redact, { cutShort });
}
