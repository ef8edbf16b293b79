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

  it('gives back the very same text when it is shorter than every secret, without searching it', () => {
    const path = '/v1/pets?limit=2';
    expect(redact(path)).toBe(path);
    expect(redactSecrets([])('/v1/pets/1')).toBe('/v1/pets/1');
  });
});

describe('redactSecrets, at the edges of what it finds', () => {
  // Made in each test: what a test makes before its run, Stryker's run of a mutant may not see.
  const redactor = () => redactSecrets([KEY, TOKEN]);
  /** `text` with every character percent-encoded `times` times over (`%252541` is `A` three times). */
  const deeply = (text: string, times: number) => encoded(text).map((spelling) => spelling.replace('%', `%${'25'.repeat(times - 1)}`));

  it('replaces a text that is the secret and nothing else, and a sandbox key of the shortest plan alone', () => {
    expect(redactor()(KEY)).toBe('[redacted]');
    expect(redactSecrets([])(SANDBOX.replace('_free_', '_pro_'))).toBe('[redacted]');
  });

  it('ignores an empty secret, which would otherwise match between every two characters', () => {
    expect(redactSecrets(['', KEY])('/v1/pets?limit=2&status=available')).toBe('/v1/pets?limit=2&status=available');
  });

  it('matches the characters of a secret literally, those a pattern reads otherwise too, in the text and inside base64', () => {
    const key = 'my.key+(0123)';
    const redactDots = redactSecrets([key]);
    expect(redactDots(`a=${key}&b=myXkey+(0123)&c=my.keyy(0123)`)).toBe('a=[redacted]&b=myXkey+(0123)&c=my.keyy(0123)');
    expect(redactDots(`Basic ${btoa(`u:${key}`)} Basic ${btoa('u:myXkey+(0123)')}`)).toBe(`Basic [redacted] Basic ${btoa('u:myXkey+(0123)')}`);
  });

  it('replaces a key with a slash written `\\/` in JSON, and leaves a letter its case folding would make two', () => {
    expect(redactSecrets(['my/key-0123'])('{"k":"my\\/key-0123","l":"my\\u002fkey-0123"}')).toBe('{"k":"[redacted]","l":"[redacted]"}');
    // `ß` upper-cases to `SS`, two characters: only `ß` itself (and `ẞ`, which lower-cases to it) stands for it.
    expect(redactSecrets(['straße-0123456'])('STRASSE-0123456 strasse-0123456')).toBe('STRASSE-0123456 strasse-0123456');
  });

  it('replaces a sandbox key written wholly in JSON escapes, its id and secret characters in either case of hex', () => {
    const escaped = [...SANDBOX].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(redactSecrets([])(`{"k":"${escaped}"}`)).toBe('{"k":"[redacted]"}');
    expect(redactSecrets([])(`{"k":"${escaped.toUpperCase().replaceAll('\\U', '\\u')}"}`)).toBe('{"k":"[redacted]"}');
  });

  it('replaces a secret in base64 whose run is exactly as long as the secret needs, and its two `=` of padding', () => {
    // 12 characters are 16 of base64, without padding; 13 are 18 and `==`.
    expect(redactSecrets(['my-key-01234'])(`x ${btoa('my-key-01234')} y`)).toBe('x [redacted] y');
    expect(redactSecrets(['my-key-012345'])(`x ${btoa('my-key-012345')}= y`)).toBe('x [redacted]= y');
    expect(redactSecrets(['my-key-012345'])(`x=${btoa('my-key-012345')}&y`)).toBe('x=[redacted]&y');
  });

  it('replaces a secret in a run of base64 as long as it decodes, and a cut run at the end of a text that long', () => {
    const run = btoa(`${'a picture, say. '.repeat(383)}${KEY}xxxxx`);
    expect(run.length).toBe(8_192);
    expect(redactor()(`{"file":"${run}"}`)).toBe('{"file":"[redacted]"}');
    const cut = btoa(`${'a picture, say. '.repeat(400)}user:${KEY}`).slice(0, -4);
    expect(redactor().cutShort(`{"file":"${cut}`)).toBe(`{"file":"${cut.slice(0, -8_192)}[redacted]`);
  });

  it('cut short, replaces a run of eight base64 characters or more whose text ends with three characters or more of a secret', () => {
    expect(redactor().cutShort(`Basic ${btoa('u:my-k')}`)).toBe('Basic [redacted]');
    expect(redactor().cutShort(`Basic ${btoa('uu:my-')}`)).toBe('Basic [redacted]');
    expect(redactor().cutShort(`Basic ${btoa('uuu:my')}`)).toBe(`Basic ${btoa('uuu:my')}`);
    expect(redactor().cutShort(`Basic ${btoa('u:my-k').slice(0, 7)}`)).toBe(`Basic ${btoa('u:my-k').slice(0, 7)}`);
  });

  it('cut short, finds the start of a secret spelled many times longer than the secret, the longer the longer the secret', () => {
    // 27 characters for each of ten: past 24 a character of the key, within 24 of the longest sandbox key's.
    expect(redactor().cutShort(`k=${deeply(KEY.slice(0, 10), 13).join('')}`)).toBe('k=[redacted]');
    // 63 for each of twenty: within 24 a character of the longest sandbox key (57), not of the shortest (54).
    expect(redactor().cutShort(`t=${deeply(TOKEN.slice(0, 20), 31).join('')}`)).toBe('t=[redacted]');
    const long = `long-${'0123456789'.repeat(10)}`;
    expect(redactSecrets([long]).cutShort(`k=${deeply(long.slice(0, -1), 11).join('')}`)).toBe('k=[redacted]');
  });
});

/**
 * The module loaded anew, for what it makes once per load (the sandbox keys' patterns): Stryker,
 * running files without isolation, changes the code between runs of one process.
 */
let loads = 0;
async function fresh(): Promise<typeof import('./redaction.ts')> {
  // A query of its own is a module of its own: this file loaded anew, the modules it imports kept.
  return import(/* @vite-ignore */ `./redaction.ts?load=${++loads}`);
}

describe('redactSecrets, its patterns made afresh', () => {
  it('replaces a sandbox key percent-encoded or JSON-escaped whole, and leaves an id in capitals or one too long', async () => {
    const none = (await fresh()).redactSecrets([]);
    const escaped = [...SANDBOX].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(none(`k=${encoded(SANDBOX).join('')}&l=${encoded(SANDBOX, 'lower').join('')}&j=${escaped}`)).toBe('k=[redacted]&l=[redacted]&j=[redacted]');
    const capitals = SANDBOX.replace('0123456789ab', '0123456789AB');
    expect(none(capitals)).toBe(capitals);
    expect(none.cutShort(`k=${SANDBOX.slice(0, 17)}`)).toBe('k=[redacted]');
    expect(none.cutShort('k=psbx_0123456789abcd')).toBe('k=psbx_0123456789abcd');
    expect(none(SANDBOX.replace('_free_', '_pro_'))).toBe('[redacted]');
    expect(none(`Basic ${btoa(`u:${SANDBOX}`)}`)).toBe('Basic [redacted]');
    expect(none.cutShort(`k=${encoded(SANDBOX.slice(0, 20)).join('')}%5`)).toBe('k=[redacted]');
  });

  it('cut short, searches 24 characters for each of the longest sandbox key\u2019s (57) from the end, the length made afresh', async () => {
    // 67 characters for each of twenty (1,340): within 24 × 57 (1,368) of the end, not within 24 × 55 (1,320).
    const spelled = encoded(TOKEN.slice(0, 20)).map((spelling) => spelling.replace('%', `%${'25'.repeat(32)}`));
    expect((await fresh()).redactSecrets([KEY, TOKEN]).cutShort(`t=${spelled.join('')}`)).toBe('t=[redacted]');
  });

  it('replaces a sandbox selector percent-encoded whole, and leaves one whose secret is a character short', async () => {
    const none = (await fresh()).redactSecrets([]);
    const selector = `pssel_${'Zz9_-'.repeat(6)}qr`;
    expect(none(`s=${encoded(selector).join('')}`)).toBe('s=[redacted]');
    expect(none(`s=${selector.slice(0, -1)}`)).toBe(`s=${selector.slice(0, -1)}`);
  });

  it('replaces a key, whole or cut, in a UTF-16 text read as UTF-8', async () => {
    const redact = (await fresh()).redactSecrets([KEY]);
    const utf16 = (text: string) => [...text].map((c) => `${c}\0`).join('');
    expect(redact(utf16(`{"k":"${KEY}"}`)).replaceAll('\0', '')).toBe('{"k":"[redacted]"}');
    expect(redact.cutShort(utf16(`{"k":"${KEY.slice(0, 6)}`)).replaceAll('\0', '')).toBe('{"k":"[redacted]');
  });

  it('takes nothing else for a character of a secret: not `\\/`, which stands for a slash only', async () => {
    const redact = (await fresh()).redactSecrets([KEY]);
    expect(redact('my\\/key-0123')).toBe('my\\/key-0123');
  });
});

describe('a sandbox selector', () => {
  const SELECTOR = `pssel_${'Zz9_-'.repeat(6)}qr`;

  it('is redacted by its shape, with no list, as the Petstore-Sandbox value, a baggage member, percent-encoded or in base64', () => {
    const none = redactSecrets([]);
    expect(none(SELECTOR)).toBe('[redacted]');
    expect(none(`userId=7, petstore.sandbox=${SELECTOR};ttl=3`)).toBe('userId=7, petstore.sandbox=[redacted];ttl=3');
    expect(none(`petstore.sandbox=${encoded(SELECTOR).join('')}`)).toBe('petstore.sandbox=[redacted]');
    expect(none(`x=${btoa(`petstore.sandbox=${SELECTOR}`)}`)).toBe('x=[redacted]');
  });

  it('leaves a text only shaped like one (a short secret), and redacts the start of one a cut text ends with', () => {
    const none = redactSecrets([]);
    expect(none(SELECTOR.slice(0, -1))).toBe(SELECTOR.slice(0, -1));
    expect(none.cutShort(`{"s":"${SELECTOR.slice(0, 20)}`)).toBe('{"s":"[redacted]');
  });
});
