/** Redaction of a text cut short, when the text is longer than the tail searched for the start of a secret: the start of a key at its very end still goes. */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redaction.ts';

const KEY = 'my-key-0123';
const TOKEN = 'admin-token-0123456789';
/** The tail searched, in characters: 24 a character of the longest secret, here the longest sandbox key (57). */
const TAIL = 24 * 57;

describe('redactSecrets, cut short, on a long text', () => {
  it('replaces the start of a key that ends a text a few characters longer than the tail searched', () => {
    // Made in the test: what a test makes before its run, Stryker's run of a mutant may not see.
    const redact = redactSecrets([KEY, TOKEN]);
    const text = `${'x'.repeat(TAIL - 5)}${KEY.slice(0, 9)}`;
    expect(text.length).toBe(TAIL + 4);
    expect(redact.cutShort(text)).toBe(`${'x'.repeat(TAIL - 5)}[redacted]`);
  });
});
