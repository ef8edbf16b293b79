/** Secrets inside base64 (a `Basic` credential in another header, a token's part): the runs of base64 in a text, found cheaply, and what they decode to. */

/**
 * The longest run of base64 decoded: a credential (`Basic …`, a token's part) is far shorter, and
 * decoding a whole upload several times cost a journaled request hundreds of times the rest of its
 * work (BENCHMARKS.md, Findings: figures moved from the code).
 *
 * @example
 * decodings('A'.repeat(LONGEST_DECODED_RUN + 1)); // []
 */
export const LONGEST_DECODED_RUN = 8 * 1024;
const BASE64_CHARACTER = /[A-Za-z0-9+/_-]/;
/** Which ASCII codes are base64 or base64url characters, by code: a table lookup a character. */
const IN_BASE64 = Uint8Array.from({ length: 128 }, (_, code) => Number(BASE64_CHARACTER.test(String.fromCharCode(code))));

/** Whether a UTF-16 code is a base64 or base64url character. */
const isBase64 = (code: number) => code < 128 && IN_BASE64[code] === 1;

/**
 * `text` with each run of base64 at least `length` long (its `=` padding with it) replaced by
 * `replacement` when `carries` says so. Such a run holds one of every `length`-th character, so only those are looked
 * at, and a run only around one that is base64: the cheaper path, against reading each
 * character or a pattern such as `[A-Za-z0-9+/_-]{25,}`, which reads a short run again from each
 * of its characters (BENCHMARKS.md, Findings).
 *
 * @example
 * replaceRuns('Basic dXNlcjpteS1rZXk=', 8, (run) => atob(run).includes('my-key'), '[redacted]'); // 'Basic [redacted]'
 */
export function replaceRuns(text: string, length: number, carries: (run: string) => boolean, replacement: string): string {
  let out = '';
  let kept = 0;
  for (let probe = length - 1; probe < text.length; probe += length) {
    if (!isBase64(text.charCodeAt(probe))) continue;
    let start = probe;
    while (start > 0 && isBase64(text.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < text.length && isBase64(text.charCodeAt(end))) end++;
    // The next run starts after this one's end, so the next look is `length` past its last character.
    probe = end - 1;
    if (end - start < length) continue;
    const unpadded = end;
    while (end < text.length && end - unpadded < 2 && text[end] === '=') end++;
    if (carries(text.slice(start, end))) {
      out += `${text.slice(kept, start)}${replacement}`;
      kept = end;
    }
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/**
 * The run of base64 that ends `text` (where a cut credential ends), found from the end: a pattern
 * anchored at `$` would scan a long run once per character.
 *
 * @example
 * lastRun('Basic dXNlcjpteS1r'); // 'dXNlcjpteS1r'
 */
export function lastRun(text: string): string {
  let start = text.length;
  while (start > 0 && text.length - start < LONGEST_DECODED_RUN && isBase64(text.charCodeAt(start - 1))) start--;
  return text.slice(start);
}

/**
 * The texts `run` may be base64 of, as binary strings (one character a byte: a secret's ASCII is
 * itself): decoded from each of its first four characters, as a run glued to a word before it
 * (`token=…` is cut at `=`, but `Basic…` is not) starts out of step. None for a run longer than
 * {@link LONGEST_DECODED_RUN}.
 *
 * @example
 * decodings('dXNlcjpteS1rZXk=')[0]; // 'user:my-key'
 */
export function decodings(run: string): string[] {
  if (run.length > LONGEST_DECODED_RUN) return [];
  const standard = run.replace(/=+$/, '').replaceAll('-', '+').replaceAll('_', '/');
  const texts: string[] = [];
  for (let offset = 0; offset < 4 && standard.length - offset >= 4; offset++) {
    const part = standard.slice(offset);
    try {
      texts.push(atob(part.length % 4 === 1 ? part.slice(0, -1) : part));
    } catch {
      // Not base64 from this offset.
    }
  }
  return texts;
}
