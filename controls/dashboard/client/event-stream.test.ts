/** The event stream as the page reads it: whole events out of chunks cut anywhere, comments, CRLF and multi-line data; the retry delays. */
import { describe, expect, it } from 'vitest';
import { retryDelayMs, type StreamEvent, streamEvents } from './event-stream.ts';

const encoder = new TextEncoder();

/** Every event of a body sent as `chunks` (text as UTF-8). */
async function eventsOf(...chunks: (string | Uint8Array<ArrayBuffer>)[]): Promise<StreamEvent[]> {
  const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
  const events: StreamEvent[] = [];
  const reader = streamEvents(body).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) events.push(read.value);
  return events;
}

describe('streamEvents', () => {
  it('gives each whole event with its name and data, and nothing of an event the stream cut short', async () => {
    expect(await eventsOf('event: exchange\ndata: {"a":1}\n\nevent: overflow\ndata: {}\n\nevent: exch')).toEqual([
      { event: 'exchange', data: '{"a":1}' },
      { event: 'overflow', data: '{}' },
    ]);
  });

  it('reads an event cut across two chunks inside a line and inside a character', async () => {
    const bytes = encoder.encode('event: exchange\ndata: {"name":"Zo\u00eb"}\n\n');
    const inside = bytes.indexOf(0xc3) + 1;
    expect(await eventsOf(bytes.slice(0, inside), bytes.slice(inside))).toEqual([{ event: 'exchange', data: '{"name":"Zo\u00eb"}' }]);
  });

  it('gives no event for a heartbeat comment, names an unnamed event message, and joins data lines with newlines', async () => {
    expect(await eventsOf(': heartbeat\n\ndata: one\ndata: two\n\n')).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });

  it('reads CRLF line ends and drops only the one space after the colon', async () => {
    expect(await eventsOf('event:overflow\r\ndata:  x\r\n\r\n')).toEqual([{ event: 'overflow', data: ' x' }]);
  });
});

describe('retryDelayMs', () => {
  it('waits a quarter second after a stream that worked, then half a second doubling to at most 30 seconds', () => {
    expect([0, 1, 2, 3, 7, 20].map(retryDelayMs)).toEqual([250, 500, 1_000, 2_000, 30_000, 30_000]);
  });
});
