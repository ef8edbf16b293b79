/** utf8Length: the byte count a Content-Length carries, without encoding the text. */
import { describe, expect, it } from 'vitest';
import { utf8Length } from './reply.ts';

describe('utf8Length', () => {
  it.each([
    ['ASCII', '{"name":"Rex"}'],
    ['two-byte letters', 'Ünïcödé ß'],
    ['three-byte letters', '日本語のペット'],
    ['a pair of surrogates (an emoji)', 'dog 🐕 and 🐈'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', 'a\udc00b'],
    ['a high surrogate at the end', 'end\ud83d'],
    ['the empty string', ''],
  ])('counts %s as TextEncoder encodes it', (_, text) => {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).byteLength);
  });
});
