/** The journal as HAR 1.2: each exchange an entry as Chrome DevTools and Playwright's routeFromHAR read it, the same as an object and as the stream the admin API sends. */
import { describe, expect, it } from 'vitest';
import { journalEntry } from '../../test/helpers/journal-entry.ts';
import type { RecordedExchange } from './journal.ts';
import { harJson, harOf } from './journal-har.ts';

/** A POST of a pet answered 201, as the journal keeps it. */
const created: RecordedExchange = journalEntry({
  method: 'POST',
  path: '/v1/pets',
  query: 'limit=2&name=Rex%20the%20dog&key=[redacted]',
  url: 'http://127.0.0.1:8080/v1/pets?limit=2&name=Rex%20the%20dog&key=[redacted]',
  requestHeaders: { authorization: 'Bearer [redacted]', 'content-type': 'application/json' },
  requestBody: '{"name":"Rex","categoryId":1}',
  status: 201,
  responseHeaders: { 'content-type': 'application/json', location: '/v1/pets/1' },
  responseBody: '{"id":1,"name":"Rex","categoryId":1,"status":"available"}',
  ms: 12.5,
  time: '2026-01-01T00:00:01.000Z',
});

/** Every chunk of `stream` as one text. */
async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('harOf', () => {
  it('writes a HAR 1.2 log by petstore-service with an entry per exchange, in the order given', () => {
    const har = harOf([journalEntry({ path: '/v1/pets/1' }), journalEntry({ path: '/v1/pets/2' })]);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('petstore-service');
    expect(typeof har.log.creator.version).toBe('string');
    expect(har.log.entries.map((entry) => entry.request.url)).toEqual(['http://x/v1/pets/1', 'http://x/v1/pets/2']);
  });

  it('writes the request: method, the absolute URL, headers as name and value, the query decoded, the body as postData', () => {
    const { request } = harOf([created]).log.entries[0]!;
    expect(request).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:8080/v1/pets?limit=2&name=Rex%20the%20dog&key=[redacted]',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [
        { name: 'authorization', value: 'Bearer [redacted]' },
        { name: 'content-type', value: 'application/json' },
      ],
      queryString: [
        { name: 'limit', value: '2' },
        { name: 'name', value: 'Rex the dog' },
        { name: 'key', value: '[redacted]' },
      ],
      postData: { mimeType: 'application/json', text: '{"name":"Rex","categoryId":1}' },
      headersSize: -1,
      bodySize: -1,
    });
  });

  it('writes the response: status and its reason phrase, headers, the body as content with its UTF-8 size, Location as redirectURL', () => {
    const { response } = harOf([created]).log.entries[0]!;
    expect(response).toEqual({
      status: 201,
      statusText: 'Created',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [
        { name: 'content-type', value: 'application/json' },
        { name: 'location', value: '/v1/pets/1' },
      ],
      content: { size: 57, mimeType: 'application/json', text: '{"id":1,"name":"Rex","categoryId":1,"status":"available"}' },
      redirectURL: '/v1/pets/1',
      headersSize: -1,
      bodySize: -1,
    });
    const accented = harOf([journalEntry({ path: '/v1/pets', responseBody: '"Réx 🐕"' })]).log.entries[0]!;
    expect(accented.response.content.size).toBe(11);
  });

  it('writes an answer without Content-Type or Location (a 204) with an empty mimeType and redirectURL, as HAR asks for unknowns', () => {
    const { response } = harOf([journalEntry({ method: 'DELETE', path: '/v1/pets/1', status: 204, responseHeaders: {}, responseBody: '' })]).log.entries[0]!;
    expect({ content: response.content, redirectURL: response.redirectURL }).toEqual({ content: { size: 0, mimeType: '', text: '' }, redirectURL: '' });
  });

  it('starts an entry its ms before the store time it was answered (to the whole ms below), all of them waiting', () => {
    const entry = harOf([created]).log.entries[0]!;
    expect(entry.startedDateTime).toBe('2026-01-01T00:00:00.987Z');
    expect(entry.time).toBe(12.5);
    expect(entry.timings).toEqual({ send: 0, wait: 12.5, receive: 0 });
    expect(entry.cache).toEqual({});
  });

  it('keeps the answer time as the start when the clock stands at the beginning of the Date range', () => {
    const first = journalEntry({ path: '/v1/pets', ms: 3, time: '-271821-04-20T00:00:00.000Z' });
    expect(harOf([first]).log.entries[0]!.startedDateTime).toBe('-271821-04-20T00:00:00.000Z');
  });

  it('writes no postData and a body size of 0 for a request without a body', () => {
    const { request } = harOf([journalEntry({ path: '/v1/pets' })]).log.entries[0]!;
    expect(request).not.toHaveProperty('postData');
    expect(request.bodySize).toBe(0);
    expect(request.queryString).toEqual([]);
  });

  it('marks a body the journal cut with _truncated, and writes no postData of a refused request’s body, which it never read', () => {
    const cut = journalEntry({ method: 'POST', path: '/v1/pets', requestBody: '{"name":"Re', requestBodyTruncated: true });
    expect(harOf([cut]).log.entries[0]!.request.postData).toEqual({ mimeType: '', text: '{"name":"Re', _truncated: true });
    const refused = journalEntry({ method: 'POST', path: '/v1/pets', status: 401, requestBody: '', requestBodyTruncated: true });
    const { request } = harOf([refused]).log.entries[0]!;
    expect(request).not.toHaveProperty('postData');
    expect(request.bodySize).toBe(-1);
  });

  it('marks request headers the journal cut with _headersTruncated', () => {
    const cut = journalEntry({ path: '/v1/pets', requestHeaders: { 'x-a': 'b' }, requestHeadersTruncated: true });
    expect(harOf([cut]).log.entries[0]!.request._headersTruncated).toBe(true);
    expect(harOf([created]).log.entries[0]!.request).not.toHaveProperty('_headersTruncated');
  });

  it('writes a network fault (status 0) as Chrome writes a request that failed: status 0, no headers or content, and _error', () => {
    const reset = journalEntry({ path: '/v1/pets', status: 0, ms: 4 });
    const { response } = harOf([reset]).log.entries[0]!;
    expect(response).toEqual({
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _error: 'net::ERR_EMPTY_RESPONSE',
    });
  });
});

describe('harJson', () => {
  it('streams exactly what harOf makes, for no exchange, one, and many', async () => {
    for (const exchanges of [[], [created], Array.from({ length: 3 }, () => created)]) {
      expect(JSON.parse(await text(harJson(exchanges)))).toEqual(harOf(exchanges));
    }
  });

  it('sends a journal larger than a chunk in several chunks that make one HAR', async () => {
    const many = Array.from({ length: 40 }, (_, n) => journalEntry({ path: `/v1/pets/${n}`, responseBody: 'x'.repeat(10_000) }));
    const reader = harJson(many).getReader();
    let chunks = 0;
    let all = '';
    const decoder = new TextDecoder();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks++;
      all += decoder.decode(read.value);
    }
    expect(chunks).toBeGreaterThan(4);
    expect(JSON.parse(all)).toEqual(harOf(many));
  });
});
