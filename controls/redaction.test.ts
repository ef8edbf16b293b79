/** Redaction: every spelling of a configured key, of any sandbox key and of the admin token becomes [redacted], and text without one is left as it came. */
import { describe, expect, it } from 'vitest';
import { liveSecrets, redactSecrets } from './redaction.ts';

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

  it('replaces a key percent-encoded twice or more (`%256D`, `%25256d`), whole or one character', () => {
    const twice = encoded(KEY).map((spelling) => spelling.replace('%', '%25'));
    expect(redact(`?k=${twice.join('')}`)).toBe('?k=[redacted]');
    expect(redact(`?k=%25256dy-key-0123&t=admin%252Dtoken-0123456789`)).toBe('?k=[redacted]&t=[redacted]');
    expect(redactSecrets([])(`k=%2570sbx_0123456789ab_free%255f${SANDBOX.slice(-32)}`)).toBe('k=[redacted]');
  });

  it('replaces a key written with JSON escapes, any of its characters, in either case of hex digits', () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(redact(`{"name":"${escaped}"}`)).toBe('{"name":"[redacted]"}');
    expect(redact('{"name":"\\u006dy-key-0123","t":"admin\\u002Dtoken-0123456789"}')).toBe('{"name":"[redacted]","t":"[redacted]"}');
  });

  it('replaces a key in base64 or base64url, alone or in a Basic credential, and the whole run that carried it', () => {
    const base64 = (text: string) => btoa(text);
    expect(redact(`Basic ${base64(`user:${KEY}`)}`)).toBe('Basic [redacted]');
    expect(redact(`Basic ${base64(`${TOKEN}:`)}`)).toBe('Basic [redacted]');
    expect(redact(`x=${base64(KEY)}&y=2`)).toBe('x=[redacted]&y=2');
    const url = base64(`{"k":"${KEY}"}`).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
    expect(redact(`a.${url}.b`)).toBe('a.[redacted].b');
    expect(redactSecrets([])(`Basic ${base64(`u:${SANDBOX}`)}`)).toBe('Basic [redacted]');
    const blob = base64(`${'a picture, say. '.repeat(200)}${KEY}${' and more of it.'.repeat(100)}`);
    expect(redact(`{"file":"${blob}","n":1}`)).toBe('{"file":"[redacted]","n":1}');
  });

  it('leaves base64 that carries no secret as it came', () => {
    const text = `Basic ${btoa('user:a-password-of-some-length')} and ${btoa('nothing to see in this one')}`;
    expect(redact(text)).toBe(text);
  });

  it('replaces a key in a UTF-16 body (little or big endian) read as UTF-8, NULs between its letters', () => {
    const utf16 = (text: string, endian: 'le' | 'be') =>
      new TextDecoder().decode(new Uint8Array([...text].flatMap((c) => (endian === 'le' ? [c.charCodeAt(0), 0] : [0, c.charCodeAt(0)]))));
    for (const endian of ['le', 'be'] as const) {
      const body = utf16(`{"name":"${KEY}","s":"${SANDBOX}"}`, endian);
      const redacted = redact(body);
      expect(redacted).not.toMatch(/m\0?y\0?-|psbx/);
      expect(redacted.replaceAll('\0', '')).toBe('{"name":"[redacted]","s":"[redacted]"}');
    }
  });

  it('replaces a key in any case of its letters: a header name comes lower-cased', () => {
    const key = 'Mixed-CASE-key-0123';
    expect(redactSecrets([key])(`${key.toLowerCase()}: 1; ${key.toUpperCase()}`)).toBe('[redacted]: 1; [redacted]');
  });

  it('cut short, also replaces a tail that starts a secret in any spelling, and leaves any other tail', () => {
    expect(redact.cutShort(`{"name":"${KEY.slice(0, -1)}`)).toBe('{"name":"[redacted]');
    expect(redact.cutShort(`{"name":"${KEY.slice(0, 1)}`)).toBe('{"name":"[redacted]');
    expect(redact.cutShort(`?k=${encoded(KEY).slice(0, 4).join('')}%3`)).toBe('?k=[redacted]');
    expect(redact.cutShort('{"t":"admin\\u002Dtok')).toBe('{"t":"[redacted]');
    expect(redact.cutShort(`{"s":"${SANDBOX.slice(0, 30)}`)).toBe('{"s":"[redacted]');
    expect(redact.cutShort(`{"s":"${SANDBOX.replace('_free_', '_pro_').slice(0, 21)}`)).toBe('{"s":"[redacted]');
    expect(redact.cutShort(`Basic ${btoa(`user:${KEY}`).slice(0, 16)}`)).toBe('Basic [redacted]');
    expect(redact.cutShort(`{"name":"${KEY}","n":"Rex`)).toBe('{"name":"[redacted]","n":"Rex');
    expect(redact.cutShort('{"name":"Rex')).toBe('{"name":"Rex');
  });

  it('sees each change of a live list of secrets, beside the fixed ones', () => {
    const live = liveSecrets();
    const redactLive = redactSecrets([KEY], live);
    expect(redactLive(`a=${KEY}&b=selector-0123456789`)).toBe('a=[redacted]&b=selector-0123456789');
    live.add('selector-0123456789');
    expect(redactLive(`a=${KEY}&b=selector-0123456789`)).toBe('a=[redacted]&b=[redacted]');
    live.delete('selector-0123456789');
    expect(redactLive('b=selector-0123456789')).toBe('b=selector-0123456789');
  });

  it('gives back the very same text when it is shorter than every secret, without searching it', () => {
    const path = '/v1/pets?limit=2';
    expect(redact(path)).toBe(path);
    expect(redactSecrets([])('/v1/pets/1')).toBe('/v1/pets/1');
  });
});
