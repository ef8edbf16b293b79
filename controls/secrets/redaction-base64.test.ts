/** The base64 half of redaction on its own: which runs are looked at and replaced, the run a cut text ends with, and what a run decodes to from each offset. */
import { describe, expect, it } from 'vitest';
import { decodings, LONGEST_DECODED_RUN, lastRun, replaceRuns } from './redaction-base64.ts';

/** Replaces every run `replaceRuns` hands over, and records it. */
function everyRun(text: string, length: number) {
  const seen: string[] = [];
  const out = replaceRuns(
    text,
    length,
    (run) => {
      seen.push(run);
      return true;
    },
    '[run]',
  );
  return { out, seen };
}

describe('replaceRuns', () => {
  it('hands over each run of base64 or base64url at least `length` long, a run of exactly `length` too, and no shorter one', () => {
    expect(everyRun('ab+/cd_-ef 0123456 xyz abcdefgh', 8)).toEqual({ out: '[run] 0123456 xyz [run]', seen: ['ab+/cd_-ef', 'abcdefgh'] });
    expect(everyRun('1234567.abcdefg', 8)).toEqual({ out: '1234567.abcdefg', seen: [] });
    // A run that starts where a probe lands.
    expect(everyRun('.ab', 2)).toEqual({ out: '.[run]', seen: ['ab'] });
  });

  it('takes at most two `=` of padding with a run', () => {
    expect(everyRun('x abcdefgh= y', 8).seen).toEqual(['abcdefgh=']);
    expect(everyRun('x abcdefgh=== y', 8)).toEqual({ out: 'x [run]= y', seen: ['abcdefgh=='] });
  });

  it('leaves a run it is told carries nothing, and gives back the same text when nothing was replaced', () => {
    const text = 'Basic dXNlcjpwYXNzd29yZA== and more';
    expect(replaceRuns(text, 8, () => false, '[run]')).toBe(text);
    expect(replaceRuns(text, 8, (run) => run.startsWith('and'), '[run]')).toBe(text);
  });

  it('replaces only the runs it is told carry a secret, keeping the text between them', () => {
    expect(replaceRuns('aaaaaaaa bbbbbbbb cccccccc', 8, (run) => run !== 'bbbbbbbb', '[x]')).toBe('[x] bbbbbbbb [x]');
  });
});

describe('lastRun', () => {
  it('is the base64 that ends the text, or nothing', () => {
    expect(lastRun('Basic dXNlcjpteS1r')).toBe('dXNlcjpteS1r');
    expect(lastRun('dXNlcjpteS1r')).toBe('dXNlcjpteS1r');
    expect(lastRun('Basic dXNl.')).toBe('');
  });

  it('is at most LONGEST_DECODED_RUN long', () => {
    expect(lastRun(`x ${'A'.repeat(LONGEST_DECODED_RUN + 5)}`)).toBe('A'.repeat(LONGEST_DECODED_RUN));
  });
});

describe('decodings', () => {
  it('decodes base64 and base64url, padded or not, from its first character', () => {
    expect(decodings('bXktaw==')[0]).toBe('my-k');
    expect(decodings('bXktaw')[0]).toBe('my-k');
    expect(decodings(btoa('my-key-012345'))[0]).toBe('my-key-012345');
    expect(decodings('Pz8_Pj4-')[0]).toBe('???>>>');
  });

  it('decodes from each of the first four characters, dropping a last character that makes no byte', () => {
    // `xbXkt` from its second character is `my-`; from its first, five characters, the last dropped.
    expect(decodings('xbXkt')).toEqual([atob('xbXk'), 'my-']);
    expect(decodings('bXkt')).toEqual(['my-']);
    expect(decodings('abcdefgh')).toEqual(['abcdefgh', 'bcdefgh', 'cdefgh', 'defgh'].map((part) => atob(part.length % 4 === 1 ? part.slice(0, -1) : part)));
  });

  it('decodes a run of LONGEST_DECODED_RUN, and none longer', () => {
    expect(decodings('A'.repeat(LONGEST_DECODED_RUN))[0]).toBe('\0'.repeat((LONGEST_DECODED_RUN * 3) / 4));
    expect(decodings('A'.repeat(LONGEST_DECODED_RUN + 4))).toEqual([]);
  });
});

describe('the module loaded anew', () => {
  it('builds its table of base64 characters and its bound as the functions above read them', async () => {
    // A query of its own is a module of its own: what the module makes once per load is made again
    // here, under the code Stryker runs (files without isolation share one load otherwise).
    const url = './redaction-base64.ts?load=1';
    const fresh: typeof import('./redaction-base64.ts') = await import(/* @vite-ignore */ url);
    expect(fresh.LONGEST_DECODED_RUN).toBe(8_192);
    expect(fresh.decodings('bXkt')).toEqual(['my-']);
    expect(fresh.lastRun('Basic dXNl+/_-')).toBe('dXNl+/_-');
    expect(fresh.replaceRuns('x AZaz09+/_- é', 8, () => true, '[run]')).toBe('x [run] é');
  });
});
