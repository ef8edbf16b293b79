/** The live feed in process: what each stream is told, its heartbeat, its bound in bytes and in streams, and what it costs with no stream open. */
import { describe, expect, it } from 'vitest';
import { NO_HOST } from '../../src/index.ts';
import type { RecordedExchange } from '../journal/journal.ts';
import { createExchangeFeed, MAX_STREAMS, STREAM_QUEUE_BYTES } from './exchange-feed.ts';

const exchange = (responseBody = '[]'): RecordedExchange => ({
  method: 'GET',
  path: '/v1/pets',
  query: '',
  url: 'http://localhost/v1/pets',
  requestHeaders: {},
  requestBody: '',
  status: 200,
  responseHeaders: {},
  responseBody,
  ms: 1,
  time: '2026-06-01T12:00:00.000Z',
});

/** A feed whose heartbeat the test beats by hand, and how many heartbeats are running. */
function feedBeatenByHand() {
  const beats = new Set<() => void>();
  const feed = createExchangeFeed({
    heartbeat(beat) {
      beats.add(beat);
      return () => beats.delete(beat);
    },
  });
  const open = () => feed.answer(new Request('http://localhost/__admin/requests/events'), NO_HOST);
  return { feed, open, beat: () => beats.forEach((beat) => beat()), beating: () => beats.size };
}

/** Everything a stream has queued, read to its end. */
const readToEnd = (response: Response) => response.text();

/** The next block a reader gets. */
async function nextBlock(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value } = await reader.read();
  return new TextDecoder().decode(value);
}

describe('the exchange feed', () => {
  it('serializes nothing while no stream is open', () => {
    const { feed } = feedBeatenByHand();
    const unserializable = { toJSON: () => expect.unreachable('serialized with no stream open') } as unknown as RecordedExchange;
    expect(() => feed.publish(null, unserializable)).not.toThrow();
  });

  it('tells each open stream of an exchange, naming its sandbox, and beats every stream with a comment', async () => {
    const { feed, open, beat } = feedBeatenByHand();
    const readers = [open(), open()].map((response) => response.body!.getReader());
    for (const reader of readers) expect(await nextBlock(reader)).toBe(': petstore-service exchanges\n\n');
    feed.publish('k3j9x2m1qa0b', exchange());
    beat();
    for (const reader of readers) {
      expect(await nextBlock(reader)).toBe(`event: exchange\ndata: ${JSON.stringify({ sandbox: 'k3j9x2m1qa0b', exchange: exchange() })}\n\n`);
      expect(await nextBlock(reader)).toBe(': heartbeat\n\n');
    }
  });

  it('stops beating once the last stream is cancelled, and forgets it', async () => {
    const { feed, open, beating } = feedBeatenByHand();
    const streams = [open(), open()];
    expect(beating()).toBe(1);
    await streams[0]!.body!.cancel();
    expect(beating()).toBe(1);
    await streams[1]!.body!.cancel();
    expect(beating()).toBe(0);
    const unserializable = { toJSON: () => expect.unreachable('serialized for a cancelled stream') } as unknown as RecordedExchange;
    expect(() => feed.publish(null, unserializable)).not.toThrow();
  });

  it('ends a stream whose reader left its bytes unread past the bound with event: overflow, having queued no more than the bound', async () => {
    const { feed, open } = feedBeatenByHand();
    const stream = open();
    // Exchanges of about 70 kB each, the queue never read: the last one kept leaves less room than one more, more than half of one.
    const big = exchange('x'.repeat(70_000));
    const told = new TextEncoder().encode(`event: exchange\ndata: ${JSON.stringify({ sandbox: null, exchange: big })}\n\n`).byteLength;
    for (let i = 0; i < 20; i++) feed.publish(null, big);
    const text = await readToEnd(stream);
    const kept = Math.floor((STREAM_QUEUE_BYTES - ': petstore-service exchanges\n\n'.length) / told);
    expect(text.split('event: exchange\n').length - 1).toBe(kept);
    expect(text.endsWith('\n\nevent: overflow\ndata: {}\n\n')).toBe(true);
    expect(new TextEncoder().encode(text).byteLength).toBeLessThanOrEqual(STREAM_QUEUE_BYTES + 'event: overflow\ndata: {}\n\n'.length);
  });

  it('refuses a stream past the most open at once with the 503, and answers HEAD without opening one', async () => {
    const { open, feed } = feedBeatenByHand();
    const streams = Array.from({ length: MAX_STREAMS - 1 }, open);
    const head = feed.answer(new Request('http://localhost/__admin/requests/events', { method: 'HEAD' }), NO_HOST);
    expect([head.status, head.body]).toEqual([200, null]);
    streams.push(open());
    const refusal = (() => {
      try {
        open();
      } catch (error) {
        return error as { status: number; code: string; headers: Record<string, string> };
      }
    })();
    expect([refusal?.status, refusal?.code, refusal?.headers]).toEqual([503, 'service_unavailable', { 'Retry-After': '15' }]);
    await streams[0]!.body!.cancel();
    expect(open().status).toBe(200);
  });

  it('answers OPTIONS with Allow and any other method with the 405', () => {
    const { feed } = feedBeatenByHand();
    const options = feed.answer(new Request('http://localhost/__admin/requests/events', { method: 'OPTIONS' }), NO_HOST);
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    expect(() => feed.answer(new Request('http://localhost/__admin/requests/events', { method: 'POST' }), NO_HOST)).toThrow(
      'POST is not allowed here; use GET, HEAD, OPTIONS.',
    );
  });
});
