/** The body the journal keeps, read through the API's reads: up to the limit and never past it, what came when the API stopped or the client went, and a refused request's none. */
import { describe, expect, it } from 'vitest';
import { bodyTap, readingThrough, unreadBody } from './journal-body.ts';

/** A stream of `chunks` chunks of `size` bytes of `x`, then an error when `fails`; counts the chunks asked for. */
function source(chunks: number, size: number, fails = false) {
  const pulled = { chunks: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    cancel() {
      pulled.cancelled = true;
    },
    pull(controller) {
      if (pulled.chunks === chunks) return fails ? controller.error(new Error('client gone')) : controller.close();
      pulled.chunks++;
      controller.enqueue(new Uint8Array(size).fill(0x78));
    },
  });
  return { stream, pulled };
}

/** Reads `body` as the API does, `chunks` chunks at most (all of them without a number); the bytes read. */
async function apiReads(body: ReturnType<typeof bodyTap>['body'], chunks = Number.POSITIVE_INFINITY): Promise<number> {
  const reader = body!.getReader();
  let bytes = 0;
  for (let read = 0; read < chunks; read++) {
    const result = await reader.read();
    if (result.done) break;
    bytes += result.value.byteLength;
  }
  return bytes;
}

describe('bodyTap', () => {
  it('has no body and keeps nothing, not cut, for a request without one', async () => {
    const tap = bodyTap(null, 16);
    expect(tap.body).toBeNull();
    expect(await tap.kept()).toEqual({ text: '', truncated: false });
  });

  it('keeps a body of exactly the limit that the API read whole, not marked cut', async () => {
    const { stream } = source(4, 4);
    const tap = bodyTap(stream, 16);
    expect(await apiReads(tap.body)).toBe(16);
    expect(await tap.kept()).toEqual({ text: 'x'.repeat(16), truncated: false });
  });

  it('keeps the limit’s first bytes of a chunk that crosses it, and marks the body cut', async () => {
    const { stream } = source(2, 10);
    const tap = bodyTap(stream, 16);
    expect(await apiReads(tap.body)).toBe(20);
    expect(await tap.kept()).toEqual({ text: 'x'.repeat(16), truncated: true });
  });

  it('reads a body the API left unread up to one chunk past the limit, never to its end', async () => {
    const { stream, pulled } = source(100, 4);
    const tap = bodyTap(stream, 16);
    expect(await tap.kept()).toEqual({ text: 'x'.repeat(16), truncated: true });
    // Five chunks hold the 17th byte; a stream may ask one chunk ahead.
    expect(pulled.chunks).toBeLessThanOrEqual(6);
  });

  it('reads a short body the API left unread to its end, not marked cut', async () => {
    const { stream } = source(3, 4);
    const tap = bodyTap(stream, 16);
    expect(await tap.kept()).toEqual({ text: 'x'.repeat(12), truncated: false });
  });

  it('keeps only what the API read when the API cancelled the body, and reads no more of it', async () => {
    const { stream } = source(100, 4);
    const tap = bodyTap(stream, 16);
    const reader = tap.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(await tap.kept()).toEqual({ text: 'xxxx', truncated: false });
  });

  it('passes the API’s cancel on to the request’s body', async () => {
    const { stream, pulled } = source(100, 4);
    const tap = bodyTap(stream, 16);
    await tap.body!.getReader().cancel();
    expect(pulled.cancelled).toBe(true);
  });

  it('keeps what came before the client went, when the body fails midway', async () => {
    const { stream } = source(2, 4, true);
    const tap = bodyTap(stream, 16);
    expect(await tap.kept()).toEqual({ text: 'x'.repeat(8), truncated: false });
  });
});

describe('unreadBody', () => {
  it('marks a refused request’s body cut when it may have had one, and not when it had none or said it was empty', () => {
    expect(unreadBody(new Request('http://x/v1/pets', { method: 'POST', body: '{}' }))).toEqual({ text: '', truncated: true });
    expect(unreadBody(new Request('http://x/v1/pets'))).toEqual({ text: '', truncated: false });
    expect(unreadBody(new Request('http://x/v1/pets', { method: 'POST', body: '', headers: { 'content-length': '0' } }))).toEqual({
      text: '',
      truncated: false,
    });
  });
});

describe('readingThrough', () => {
  it('is the request with the tap’s body: its method, url and headers, and the request itself for who asks', () => {
    const request = new Request('http://x/v1/pets?limit=2', { method: 'POST', headers: { 'x-a': '1' }, body: '{}' });
    const body = bodyTap(request.body, 16).body;
    const view = readingThrough(request, body);
    expect([view.method, view.url, view.headers.get('x-a'), view.body, view.toRequest()]).toEqual(['POST', 'http://x/v1/pets?limit=2', '1', body, request]);
    expect(view.toRequest()).toBe(request);
  });
});
