/** Server-Sent Events read with fetch and a reader (EventSource cannot send a bearer header), parsed by eventsource-parser, and a follower that reconnects with backoff. */
import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { adminFetch, AdminRefusal } from './admin-fetch.ts';

/**
 * One event of a `text/event-stream`: its `event:` name (`message` when it names none) and its
 * `data:` lines joined with newlines. Comments (heartbeats) are no events.
 *
 * @example
 * const event: StreamEvent = { event: 'exchange', data: '{"sandbox":null,"exchange":{}}' };
 */
export interface StreamEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * The events of a `text/event-stream` body as they arrive, parsed by eventsource-parser (the WHATWG
 * rules: events split across chunks, comments, CRLF, multi-line data); an event that names none is
 * `message`, as EventSource calls it.
 *
 * @example
 * const events = streamEvents(response.body!).getReader();
 * const { value } = await events.read(); // { event: 'exchange', data: '{"sandbox":null,…}' }
 */
export function streamEvents(body: ReadableStream<BufferSource>): ReadableStream<StreamEvent> {
  return body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(
      new TransformStream<EventSourceMessage, StreamEvent>({ transform: ({ event, data }, out) => out.enqueue({ event: event ?? 'message', data }) }),
    );
}

/**
 * How long to wait before connecting again after `failures` connections in a row that got nothing:
 * half a second, doubling, at most 30 s.
 *
 * @example
 * retryDelayMs(0); // 250: a working stream that ended (an overflow) is followed again almost at once
 */
export function retryDelayMs(failures: number): number {
  return failures === 0 ? 250 : Math.min(30_000, 500 * 2 ** (failures - 1));
}

/**
 * What a followed stream is doing: connecting, open, waiting to retry, or refused (a wrong token:
 * following stops, as a retry would only count another wrong guess against the ban).
 *
 * @example
 * const state: StreamState = 'live';
 */
export type StreamState = 'connecting' | 'live' | 'retrying' | 'refused';

/**
 * What {@link followEvents} tells its caller.
 *
 * @example
 * const listener: StreamListener = { onOpen: reload, onEvent: (event) => console.log(event.event), onState: setState };
 */
export interface StreamListener {
  /** The stream is open (again): what was missed while it was not must be fetched anew. */
  readonly onOpen: () => void;
  readonly onEvent: (event: StreamEvent) => void;
  readonly onState: (state: StreamState, refusal?: AdminRefusal) => void;
}

/** Reads one connection's events until it ends; whether it got any bytes at all. */
async function readEvents(response: Response, signal: AbortSignal, listener: StreamListener): Promise<boolean> {
  let got = false;
  // Any byte counts, the stream's opening comment too, which is no event.
  const noted = response.body!.pipeThrough(
    new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({ transform: (chunk, out) => ((got = true), out.enqueue(chunk)) }),
  );
  const reader = streamEvents(noted).getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  // Removed when the connection ends: a page that reconnects all day must not pile up listeners.
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) return got;
      listener.onEvent(value);
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => (clearTimeout(timer), signal.removeEventListener('abort', done), resolve());
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Follows the admin event stream at `path` until `signal` aborts or the token is refused:
 * reconnects when the stream ends (the server's `overflow`, a restart, a lost connection), sooner
 * after one that worked, later after each that did not.
 *
 * @example
 * followEvents('requests/events', controller.signal, { onOpen: reload, onEvent: show, onState: setState });
 */
export async function followEvents(path: string, signal: AbortSignal, listener: StreamListener): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    listener.onState('connecting');
    let got = false;
    try {
      const response = await adminFetch(path, { signal, headers: { accept: 'text/event-stream' } });
      listener.onState('live');
      listener.onOpen();
      got = await readEvents(response, signal, listener);
    } catch (failure) {
      if (signal.aborted) return;
      if (failure instanceof AdminRefusal && (failure.status === 401 || failure.status === 429)) return listener.onState('refused', failure);
    }
    failures = got ? 0 : failures + 1;
    if (signal.aborted) return;
    listener.onState('retrying');
    await pause(retryDelayMs(failures), signal);
  }
}
