/** The event-stream parser: whole events out, the unfinished rest kept; comments, CRLF and multi-line data; the retry delays. */
import { describe, expect, it } from 'vitest';
import { parseEventStream, retryDelayMs } from './event-stream.ts';

describe('parseEventStream', () => {
  it('returns each whole event with its name and data, and keeps the text after the last blank line', () => {
    expect(parseEventStream('event: exchange\ndata: {"a":1}\n\nevent: overflow\ndata: {}\n\nevent: exch')).toEqual({
      events: [
        { event: 'exchange', data: '{"a":1}' },
        { event: 'overflow', data: '{}' },
      ],
      rest: 'event: exch',
    });
  });

  it('reads an event split across two chunks once the rest is read with the next chunk', () => {
    const first = parseEventStream('event: exchange\nda');
    expect(first.events).toEqual([]);
    expect(parseEventStream(`${first.rest}ta: {"b":2}\n\n`).events).toEqual([{ event: 'exchange', data: '{"b":2}' }]);
  });

  it('gives no event for a heartbeat comment, names an unnamed event message, and joins data lines with newlines', () => {
    expect(parseEventStream(': heartbeat\n\ndata: one\ndata: two\n\n').events).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });

  it('reads CRLF line ends, drops only the one space after the colon, and gives an event with data but no value', () => {
    expect(parseEventStream('event:overflow\r\ndata:  x\r\n\r\ndata\n\n').events).toEqual([
      { event: 'overflow', data: ' x' },
      { event: 'message', data: '' },
    ]);
  });
});

describe('retryDelayMs', () => {
  it('waits a quarter second after a stream that worked, then half a second doubling to at most 30 seconds', () => {
    expect([0, 1, 2, 3, 7, 20].map(retryDelayMs)).toEqual([250, 500, 1_000, 2_000, 30_000, 30_000]);
  });
});
