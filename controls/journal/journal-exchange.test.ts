/** One journal entry as a user reads it: what an exchange records of a request and its answer, the header bounds to the unit, and the checks made on the journal. */
import { describe, expect, it } from 'vitest';
import { journalEntry } from '../../test/helpers/journal-entry.ts';
import { connectionReset } from '../../src/index.ts';
import { redactSecrets } from '../secrets/redaction.ts';
import { HEADER_BOUNDS, matching, recordedExchange, verificationFailure, type RecordedExchange } from './journal.ts';

const KEY = 'unit-key-0123456789';
const redact = redactSecrets([KEY]);
const NOW = Date.parse('2026-01-01T00:00:00Z');

/** The entry for `request` answered with `response`, a body kept as given. */
const entry = (request: Request, response: Response, requestBody = { text: '', truncated: false }, ms = 0) =>
  recordedExchange({ request, requestBody, response, ms, now: NOW, redact });

/** `count` headers named `x-h00`, `x-h01`… (five characters), each value `value` characters long. */
function headers(count: number, value: number): Record<string, string> {
  const made: Record<string, string> = {};
  for (let i = 0; i < count; i++) made[`x-h${String(i).padStart(2, '0')}`] = 'v'.repeat(value);
  return made;
}

/** An exchange with what a check reads. */
const exchange = (method: string, path: string, status: number, query = ''): RecordedExchange => journalEntry({ method, path, status, query });

describe('a recorded exchange', () => {
  it('records the answer status, its headers lower-cased and redacted, its body, the ms to two places and the store time', async () => {
    const response = new Response(`{"key":"${KEY}"}`, { status: 201, headers: { 'X-Echo': KEY, 'Content-Type': 'application/json' } });
    const recorded = await entry(new Request('http://x/v1/pets?limit=2'), response, undefined, 12.3456);
    expect(recorded).toEqual({
      method: 'GET',
      path: '/v1/pets',
      query: 'limit=2',
      url: 'http://x/v1/pets?limit=2',
      requestHeaders: {},
      requestBody: '',
      status: 201,
      responseHeaders: { 'content-type': 'application/json', 'x-echo': '[redacted]' },
      responseBody: '{"key":"[redacted]"}',
      ms: 12.35,
      time: '2026-01-01T00:00:00.000Z',
    });
  });

  it('records a reset connection as status 0 with no answer headers or body', async () => {
    const recorded = await entry(new Request('http://x/v1/pets'), connectionReset());
    expect(recorded).toMatchObject({ status: 0, responseHeaders: {}, responseBody: '' });
  });

  it('keeps an answered request’s 17th header, past a refused one’s bound', async () => {
    const recorded = await entry(new Request('http://x/v1/pets', { headers: headers(17, 10) }), new Response(null, { status: 200 }));
    expect(Object.keys(recorded.requestHeaders)).toHaveLength(17);
    expect(recorded).not.toHaveProperty('requestHeadersTruncated');
  });

  it('keeps the answered bounds of headers for a reset connection, not a refusal’s', async () => {
    const recorded = await entry(new Request('http://x/v1/pets', { headers: headers(17, 10) }), connectionReset());
    expect(Object.keys(recorded.requestHeaders)).toHaveLength(17);
    expect(recorded).not.toHaveProperty('requestHeadersTruncated');
  });

  it('redacts a key sent as a header name, as the scheme of Authorization, and an Authorization without a scheme whole', async () => {
    const named = await entry(new Request('http://x/v1/pets', { headers: { [KEY]: '1', authorization: `${KEY} more` } }), new Response(null));
    expect(named.requestHeaders).toEqual({ '[redacted]': '1', authorization: '[redacted] [redacted]' });
    const bare = await entry(new Request('http://x/v1/pets', { headers: { authorization: 'no-scheme-here' } }), new Response(null));
    expect(bare.requestHeaders).toEqual({ authorization: '[redacted]' });
    const basic = await entry(new Request('http://x/v1/pets', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }), new Response(null));
    expect(basic.requestHeaders).toEqual({ authorization: 'Basic [redacted]' });
  });

  it('redacts a body cut at the limit up to its end, where a secret may have been cut, and marks it cut', async () => {
    const recorded = await entry(new Request('http://x/v1/pets', { method: 'POST' }), new Response(null), {
      text: `{"name":"${KEY.slice(0, 8)}`,
      truncated: true,
    });
    expect(recorded).toMatchObject({ requestBody: '{"name":"[redacted]', requestBodyTruncated: true });
    const whole = await entry(new Request('http://x/v1/pets', { method: 'POST' }), new Response(null), {
      text: `{"name":"${KEY.slice(0, 8)}`,
      truncated: false,
    });
    expect(whole.requestBody).toBe(`{"name":"${KEY.slice(0, 8)}`);
    expect(whole).not.toHaveProperty('requestBodyTruncated');
  });
});

describe('the header bounds of a recorded exchange', () => {
  const refused = new Response(null, { status: 401 });
  const { count, value, total } = HEADER_BOUNDS.refused;

  it('keeps a refused request’s 16 headers whole, and leaves out the 17th', async () => {
    const exact = await entry(new Request('http://x/', { headers: headers(count, 10) }), refused);
    expect(Object.keys(exact.requestHeaders)).toHaveLength(count);
    expect(exact).not.toHaveProperty('requestHeadersTruncated');
    const over = await entry(new Request('http://x/', { headers: headers(count + 1, 10) }), refused);
    expect(Object.keys(over.requestHeaders)).toEqual(Object.keys(headers(count, 10)));
    expect(over.requestHeadersTruncated).toBe(true);
  });

  it('keeps a value of exactly 256 characters whole, and cuts one of 257 to 256', async () => {
    const exact = await entry(new Request('http://x/', { headers: headers(1, value) }), refused);
    expect(exact.requestHeaders).toEqual({ 'x-h00': 'v'.repeat(value) });
    expect(exact).not.toHaveProperty('requestHeadersTruncated');
    const over = await entry(new Request('http://x/', { headers: { 'x-h00': `${'v'.repeat(value)}w`, 'x-h01': 'next' } }), refused);
    expect(over.requestHeaders).toEqual({ 'x-h00': 'v'.repeat(value), 'x-h01': 'next' });
    expect(over.requestHeadersTruncated).toBe(true);
  });

  it('keeps headers whose names and values make exactly 2,048 characters, and leaves out the one that passes them', async () => {
    // Eight headers of 5 + 251 characters: 2,048.
    const exact = await entry(new Request('http://x/', { headers: headers(8, (total - 8 * 5) / 8) }), refused);
    expect(Object.keys(exact.requestHeaders)).toHaveLength(8);
    expect(exact).not.toHaveProperty('requestHeadersTruncated');
    const over = await entry(new Request('http://x/', { headers: { ...headers(8, (total - 8 * 5) / 8), 'x-h99': '' } }), refused);
    expect(Object.keys(over.requestHeaders)).toHaveLength(8);
    expect(over.requestHeadersTruncated).toBe(true);
  });

  it('counts what the headers already kept take: nine headers of 5 + 250 characters leave out the ninth', async () => {
    const recorded = await entry(new Request('http://x/', { headers: headers(9, 250) }), refused);
    expect(Object.keys(recorded.requestHeaders)).toHaveLength(8);
    expect(recorded.requestHeadersTruncated).toBe(true);
  });
});

describe('matching and verificationFailure', () => {
  const requests = [exchange('GET', '/v1/pets', 200, 'limit=2'), exchange('GET', '/v1/pets/7', 404), exchange('DELETE', '/v1/pets/7', 204)];

  it('takes a RegExp for the path, tested against each exchange’s path', () => {
    expect(requests.filter(matching({ path: /^\/v1\/pets\/\d+$/ })).map((r) => r.method)).toEqual(['GET', 'DELETE']);
    expect(requests.filter(matching({ path: '/v1/pets/7', status: 404 }))).toEqual([requests[1]]);
  });

  it('shows a RegExp path as written and each exchange’s query after its path', () => {
    expect(verificationFailure(requests, { path: /\/7$/, times: 1 })).toBe(
      [
        'Expected 1 request(s) matching * /\\/7$/ *, got 2.',
        'Recorded (3, + marks a match):',
        '    GET /v1/pets?limit=2 -> 200',
        '  + GET /v1/pets/7 -> 404',
        '  + DELETE /v1/pets/7 -> 204',
      ].join('\n'),
    );
  });

  it('passes when no exchange matches and none was expected', () => {
    expect(verificationFailure(requests, { method: 'PUT', times: 0 })).toBeUndefined();
  });

  it('refuses a times that is not a whole number, 0 or more, with a TypeError', () => {
    for (const times of [-1, 1.5, Number.NaN]) {
      expect(() => verificationFailure(requests, { times })).toThrow(new TypeError('verify: times must be a whole number, 0 or more'));
    }
  });
});
