/** Redaction: every spelling of a configured key, of any sandbox key and of the admin token becomes [redacted], and text without one is left as it came. */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redaction.ts';

const KEY = 'my-key-0123';
const TOKEN = 'admin-token-0123456789';
const SANDBOX = `psbx_0123456789ab_free_${'Ab9_-'.repeat(6)}xy`;

/** `text` with every character percent-encoded, hex digits in `case`. */
const encoded = (text: string, letters: 'upper' | 'lower' = 'upper') =>
  [...new TextEncoder().encode(text)].map((byte) => {
    const hex = byte.toString(16).padStart(2, '0');
    return `%${letters === 'upper' ? hex.toUpperCase() : hex}`;
  });

describe('redactSecrets', () => {
  const redact = redactSecrets([KEY, TOKEN]);

  it('replaces a configured key and the admin token as typed, wherever they stand in the text', () => {
    expect(redact(`/v1/pets/${KEY}?token=${TOKEN}&x=${KEY}`)).toBe('/v1/pets/[redacted]?token=[redacted]&x=[redacted]');
    expect(redact(`{"name":"${KEY}","categoryId":1}`)).toBe('{"name":"[redacted]","categoryId":1}');
  });

  it('replaces a key percent-encoded whole, in upper or lower case hex, or one character only', () => {
    expect(redact(`?k=${encoded(KEY).join('')}`)).toBe('?k=[redacted]');
    expect(redact(`?k=${encoded(KEY, 'lower').join('')}`)).toBe('?k=[redacted]');
    expect(redact(`?k=my%2Dkey-0123&t=admin%2dtoken-0123456789`)).toBe('?k=[redacted]&t=[redacted]');
  });

  it('replaces a key with characters beyond ASCII percent-encoded as their UTF-8 bytes', () => {
    const key = 'clé-0123456789';
    expect(redactSecrets([key])(`/x?k=cl%C3%A9-0123456789 and ${key}`)).toBe('/x?k=[redacted] and [redacted]');
  });

  it('replaces a longer key that holds a shorter one whole', () => {
    expect(redactSecrets(['short-k1', 'short-k1-and-more'])('a=short-k1-and-more&b=short-k1')).toBe('a=[redacted]&b=[redacted]');
  });

  it('replaces any sandbox key by its shape, of every plan, typed or percent-encoded, with no list of them', () => {
    const none = redactSecrets([]);
    for (const plan of ['free', 'pro', 'business']) {
      const key = SANDBOX.replace('_free_', `_${plan}_`);
      expect(none(`Bearer ${key}`)).toBe('Bearer [redacted]');
    }
    expect(none(`k=${encoded(SANDBOX).join('')}`)).toBe('k=[redacted]');
    expect(none(`k=%70sbx_0123456789ab_free%5f${SANDBOX.slice(-32)}`)).toBe('k=[redacted]');
  });

  it('leaves what only looks like a sandbox key: an unknown plan, a short secret, an id in capitals', () => {
    const none = redactSecrets([]);
    for (const text of [SANDBOX.replace('_free_', '_gold_'), SANDBOX.slice(0, -1), SANDBOX.replace('0123456789ab', '0123456789AB')]) {
      expect(none(text)).toBe(text);
    }
  });

  it('gives back the very same text when it is shorter than every secret, without searching it', () => {
    const path = '/v1/pets?limit=2';
    expect(redact(path)).toBe(path);
    expect(redactSecrets([])('/v1/pets/1')).toBe('/v1/pets/1');
  });
});
