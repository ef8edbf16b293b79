/** The journal: the newest exchanges, bodies kept to the body limit and never read past it (a refusal's never read), headers bounded, every secret redacted, and verify's message. */
import { describe, expect, it } from 'vitest';
import { journalEntry } from '../../test/helpers/journal-entry.ts';
import { IN_PROCESS, resolveOptions } from '../../src/index.ts';
import { manualClock } from '../clock/clock.ts';
import { createControls } from '../controls.ts';
import { HEADER_BOUNDS, verificationFailure, verifyRequests, type RecordedExchange } from './journal.ts';
import { createJournal } from './journal-memory.ts';

const KEY = 'unit-key-0123456789';
const TOKEN = 'unit-admin-token-0123456789';
const SANDBOX_KEY = `psbx_0123456789ab_free_${'s3cr3t_-'.repeat(4)}`;

/** Controls over a store with one key whose quota never gets in the way and an admin token. */
function controlsWith(settings: { maxBodyBytes?: number; journalSize?: number } = {}) {
  const { maxBodyBytes, journalSize } = settings;
  const config = resolveOptions({
    apiKeys: { [KEY]: { perMinute: 1_000_000, perDay: 1_000_000 } },
    admin: { token: TOKEN },
    ...(maxBodyBytes && { maxBodyBytes }),
  });
  return createControls({ config, clock: manualClock('2026-01-01T00:00:00Z'), ...(journalSize && { journalSize }) });
}

/** An exchange of the journal with only what these tests look at. */
const exchange = (method: string, path: string, status: number): RecordedExchange => journalEntry({ method, path, status });

/** A body that streams `chunks` chunks of `size` bytes as they are asked for, and counts how many were asked for. */
function countedBody(chunks: number, size: number) {
  const pulled = { chunks: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.chunks === chunks) return controller.close();
      pulled.chunks++;
      controller.enqueue(new Uint8Array(size).fill(0x78));
    },
  });
  return { stream, pulled };
}

describe('createJournal', () => {
  it('keeps the newest exchanges up to its size, oldest first, and drops the oldest to make room', () => {
    const journal = createJournal(3);
    for (let i = 1; i <= 7; i++) journal.record(exchange('GET', `/v1/pets/${i}`, 200));
    expect(journal.entries().map((e) => e.path)).toEqual(['/v1/pets/5', '/v1/pets/6', '/v1/pets/7']);
    journal.clear();
    expect(journal.entries()).toEqual([]);
    journal.record(exchange('GET', '/v1/pets/8', 200));
    expect(journal.entries().map((e) => e.path)).toEqual(['/v1/pets/8']);
  });

  it('gives a copy that later exchanges leave unchanged', () => {
    const journal = createJournal(2);
    journal.record(exchange('GET', '/a', 200));
    const before = journal.entries();
    journal.record(exchange('GET', '/b', 200));
    journal.record(exchange('GET', '/c', 200));
    expect(before.map((e) => e.path)).toEqual(['/a']);
  });
});

describe('the controls journal', () => {
  it('keeps journalSize exchanges, the newest, and a reset or a clear empties it', async () => {
    const controls = controlsWith({ journalSize: 2 });
    for (let id = 1; id <= 5; id++) await controls.handle(new Request(`http://x/v1/pets/${id}`, { headers: { authorization: `Bearer ${KEY}` } }), IN_PROCESS);
    expect(controls.requests.map((r) => r.path)).toEqual(['/v1/pets/4', '/v1/pets/5']);
    controls.clearRequests();
    expect(controls.requests).toEqual([]);
    await controls.handle(new Request('http://x/v1/pets/6'), IN_PROCESS);
    controls.reset();
    expect(controls.requests).toEqual([]);
  });

  it('keeps no body of a 401 and reads none of it, marking the body cut', async () => {
    const controls = controlsWith({ maxBodyBytes: 1024 });
    const { stream, pulled } = countedBody(1000, 256);
    const request = new Request('http://x/v1/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect((await controls.handle(request, IN_PROCESS)).status).toBe(401);
    const [recorded] = controls.requests;
    expect(recorded!.requestBody).toBe('');
    expect(recorded!.requestBodyTruncated).toBe(true);
    // A stream asks for one chunk ahead when it is made; nothing reads it after that.
    expect(pulled.chunks).toBeLessThanOrEqual(1);
  });

  it('records a body up to maxBodyBytes and marks it cut when the API answered without reading it all', async () => {
    const controls = controlsWith({ maxBodyBytes: 1024 });
    const { stream, pulled } = countedBody(1000, 256);
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    // A create on a path with an id is a 405, answered before the body is read: the journal reads it to the limit.
    const request = new Request('http://x/v1/pets/1', { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit);
    expect((await controls.handle(request, IN_PROCESS)).status).toBe(405);
    const [recorded] = controls.requests;
    expect(recorded).toMatchObject({ requestBody: 'x'.repeat(1024), requestBodyTruncated: true, status: 405 });
    // 1,024 bytes and the chunk past them; a stream may ask one chunk ahead.
    expect(pulled.chunks).toBeLessThanOrEqual(6);
  });

  it('keeps no body of a 415, a 413 or a 429, and marks it cut only when there was one', async () => {
    const controls = controlsWith({ maxBodyBytes: 64 });
    const post = (headers: Record<string, string>, body: string) =>
      controls.handle(new Request('http://x/v1/pets', { method: 'POST', headers: { authorization: `Bearer ${KEY}`, ...headers }, body }), IN_PROCESS);
    expect((await post({ 'content-type': 'text/plain' }, 'Rex')).status).toBe(415);
    expect((await post({ 'content-type': 'application/json' }, `{"name":"${'R'.repeat(100)}"}`)).status).toBe(413);
    controls.faults.inject({ status: 429 });
    expect((await controls.handle(new Request('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } }), IN_PROCESS)).status).toBe(429);
    expect(controls.requests.map(({ status, requestBody, requestBodyTruncated }) => ({ status, requestBody, requestBodyTruncated }))).toEqual([
      { status: 415, requestBody: '', requestBodyTruncated: true },
      { status: 413, requestBody: '', requestBodyTruncated: true },
      { status: 429, requestBody: '', requestBodyTruncated: undefined },
    ]);
  });

  it('keeps at most 64 request headers of 1,024 characters each, 16 of 256 for a refused request, and marks them cut', async () => {
    const controls = controlsWith();
    const many: Record<string, string> = { authorization: `Bearer ${KEY}` };
    for (let i = 0; i < 100; i++) many[`x-h${String(i).padStart(3, '0')}`] = 'v'.repeat(2_000);
    expect((await controls.handle(new Request('http://x/v1/pets', { headers: many }), IN_PROCESS)).status).toBe(200);
    delete many.authorization;
    expect((await controls.handle(new Request('http://x/v1/pets', { headers: many }), IN_PROCESS)).status).toBe(401);
    expect((await controls.handle(new Request('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } }), IN_PROCESS)).status).toBe(200);
    const [answered, refused, plain] = controls.requests;
    for (const [exchange, bounds] of [
      [answered!, HEADER_BOUNDS.answered],
      [refused!, HEADER_BOUNDS.refused],
    ] as const) {
      const entries = Object.entries(exchange.requestHeaders);
      expect(exchange.requestHeadersTruncated).toBe(true);
      expect(entries.length).toBeLessThanOrEqual(bounds.count);
      expect(entries.every(([, value]) => value.length <= bounds.value)).toBe(true);
      expect(entries.reduce((units, [name, value]) => units + name.length + value.length, 0)).toBeLessThanOrEqual(bounds.total);
    }
    expect(refused!.requestHeaders['x-h000']).toBe('v'.repeat(256));
    expect(plain).not.toHaveProperty('requestHeadersTruncated');
    expect(plain!.requestHeaders).toEqual({ authorization: 'Bearer [redacted]' });
  });

  it('records the body the API read whole as it came, not marked cut, and none of a longer one refused with a 413', async () => {
    const controls = controlsWith({ maxBodyBytes: 64 });
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const pet = '{"name":"Rex","categoryId":1}';
    expect((await controls.handle(new Request('http://x/v1/pets', { method: 'POST', headers, body: pet }), IN_PROCESS)).status).toBe(201);
    const long = `{"name":"${'R'.repeat(100)}","categoryId":1}`;
    expect((await controls.handle(new Request('http://x/v1/pets', { method: 'POST', headers, body: long }), IN_PROCESS)).status).toBe(413);
    const [created, refused] = controls.requests;
    expect(created).toMatchObject({ requestBody: pet, status: 201 });
    expect(created).not.toHaveProperty('requestBodyTruncated');
    expect(refused).toMatchObject({ requestBody: '', requestBodyTruncated: true, status: 413 });
  });

  it('redacts a configured key, a sandbox key and the admin token in the url, query, every header, the body and the answer', async () => {
    const controls = controlsWith();
    for (const secret of [KEY, SANDBOX_KEY, TOKEN]) {
      const request = new Request(
        `http://x/v1/pets/${secret}?key=${encodeURIComponent(secret)}&again=%${secret.charCodeAt(0).toString(16)}${secret.slice(1)}`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'x-api-key': secret, cookie: `session=${secret}; theme=dark`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: secret, categoryId: 1 }),
        },
      );
      await controls.handle(request, IN_PROCESS);
    }
    const text = JSON.stringify(controls.requests);
    for (const secret of [KEY, SANDBOX_KEY, TOKEN]) expect(text).not.toContain(secret);
    expect(controls.requests[0]).toMatchObject({
      path: '/v1/pets/[redacted]',
      query: 'key=[redacted]&again=[redacted]',
      url: 'http://x/v1/pets/[redacted]?key=[redacted]&again=[redacted]',
      requestHeaders: { authorization: 'Bearer [redacted]', 'x-api-key': '[redacted]', cookie: 'session=[redacted]; theme=dark' },
      requestBody: '{"name":"[redacted]","categoryId":1}',
    });
  });
});

describe('verificationFailure', () => {
  const requests = [exchange('GET', '/v1/pets', 200), exchange('POST', '/v1/pets', 201)];

  it('says what was expected, how many matched, and lists every exchange with the matches marked', () => {
    expect(verificationFailure(requests, { method: 'post', times: 2 })).toBe(
      ['Expected 2 request(s) matching POST * *, got 1.', 'Recorded (2, + marks a match):', '    GET /v1/pets -> 200', '  + POST /v1/pets -> 201'].join('\n'),
    );
    expect(verificationFailure(requests, { path: '/v1/pets', times: 2 })).toBeUndefined();
    expect(verificationFailure([], { status: 500, times: 1 })).toBe('Expected 1 request(s) matching * * 500, got 0.\nRecorded (0, + marks a match):\n  (none)');
  });

  it('is the message verifyRequests throws', () => {
    expect(() => verifyRequests(requests, { method: 'POST', times: 2 })).toThrow(verificationFailure(requests, { method: 'POST', times: 2 })!);
  });
});
