/** utf8Length and injectedReply: the byte count a Content-Length carries, and the headers an injected error answers with. */
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { injectedReply, utf8Length } from './reply.ts';

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

describe('injectedReply', () => {
  it('leaves out the Retry-After of the refusal a fault replaced, and keeps the quota headers', () => {
    const error = new ApiError({ status: 458, code: 'invalid_request', message: 'Injected.' });
    const reply = injectedReply(error, { 'Retry-After': '30', 'X-RateLimit-Remaining': '0' });
    expect(reply.headers).toEqual({ 'X-RateLimit-Remaining': '0' });
  });

  it('keeps the Retry-After an injected 503 says itself', () => {
    const error = new ApiError({ status: 503, code: 'service_unavailable', message: 'Down.', headers: { 'Retry-After': '5' } });
    expect(injectedReply(error, { 'Retry-After': '30' }).headers).toEqual({ 'Retry-After': '5' });
  });
});
