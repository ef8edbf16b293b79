/**
 * The live feed of journaled exchanges (`GET /__admin/requests/events`): every world's, as
 * Server-Sent Events, to at most {@link MAX_STREAMS} readers at once, each behind a queue of at most
 * {@link STREAM_QUEUE_BYTES}, so a slow or vanished reader holds a bounded amount and nothing more.
 */
import { ApiError, endlessAnswer, reasonPhrase, type Host } from '../../src/index.ts';
import type { RecordedExchange } from '../journal/journal.ts';
import { answerOn } from './route-answer.ts';

/**
 * The feed's path below `/__admin`: a server's, not a world's (every world's exchanges come through it).
 *
 * @example
 * if (path === FEED_PATH) return feed.answer(request, host);
 */
export const FEED_PATH = '/requests/events';

/**
 * The most streams open at once on one server; the next is refused with a 503 (see {@link RETRY_STREAM_SECONDS}).
 *
 * @example
 * MAX_STREAMS; // 8: a dashboard tab holds one
 */
export const MAX_STREAMS = 8;

/**
 * The most bytes a stream holds that its reader has not taken: past them it sends `event: overflow`
 * and ends, and the reader fetches the journal anew.
 *
 * @example
 * STREAM_QUEUE_BYTES; // 1 MiB
 */
export const STREAM_QUEUE_BYTES = 1024 * 1024;

/**
 * How often every open stream gets a comment line: a proxy sees the connection in use, and a
 * reader that left is found gone when the write fails.
 *
 * @example
 * HEARTBEAT_MS; // 15 s
 */
export const HEARTBEAT_MS = 15_000;

/**
 * The `Retry-After` of the refusal when {@link MAX_STREAMS} are open: a stream whose reader left is
 * found gone by the next heartbeat at the latest.
 *
 * @example
 * RETRY_STREAM_SECONDS; // 15
 */
export const RETRY_STREAM_SECONDS = HEARTBEAT_MS / 1000;

/**
 * What is told of each journaled exchange: the sandbox whose world journaled it (`null` for the
 * main world) and the exchange, exactly as the journal keeps it.
 *
 * @example
 * const told: ExchangeListener = (sandbox, exchange) => console.log(sandbox ?? 'main', exchange.status);
 */
export type ExchangeListener = (sandbox: string | null, exchange: RecordedExchange) => void;

/**
 * The feed of one server's worlds: `publish` is what the worlds call after each journal entry,
 * `answer` what the admin API answers a stream's request with.
 *
 * @example
 * const feed = createExchangeFeed();
 * const worlds = createWorlds({ …, onRecord: feed.publish });
 */
export interface ExchangeFeed {
  /** Tells every open stream of `exchange`; with none open it does nothing, the exchange not even serialized. */
  readonly publish: ExchangeListener;
  /**
   * A GET's stream (a HEAD's headers only), or the 503 ApiError thrown when {@link MAX_STREAMS} are
   * open; `Allow` for OPTIONS, the 405 ApiError for any other method.
   */
  answer(request: Request, host: Host): Response;
}

/** How a feed is paced: its heartbeat, every {@link HEARTBEAT_MS} while a stream is open (tests beat by hand). */
export interface FeedSettings {
  /** Calls `beat` on the heartbeat until the returned function is called. Default: an unref'd interval. */
  readonly heartbeat?: (beat: () => void) => () => void;
}

const encoder = new TextEncoder();
/** The first bytes of every stream: node:http sends the head with the first write, and a reader waits for the head. */
const OPENED = encoder.encode(': petstore-service exchanges\n\n');
const HEARTBEAT = encoder.encode(': heartbeat\n\n');
const OVERFLOW = encoder.encode('event: overflow\ndata: {}\n\n');

const FULL = new ApiError({
  status: 503,
  code: 'service_unavailable',
  message: `${MAX_STREAMS} event streams are open, the most at once: close one (a dashboard tab), or try again later.`,
  headers: { 'Retry-After': String(RETRY_STREAM_SECONDS) },
});

const STREAM_HEADERS = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' };

/** One open stream: what the feed gives it, and its end. */
interface Reader {
  send(chunk: Uint8Array): void;
}

/** An interval that never keeps a process alive (Node, Deno and Bun have unref; a browser's or a Worker's timer is a number). */
function everyHeartbeat(beat: () => void): () => void {
  const timer = setInterval(beat, HEARTBEAT_MS);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}

/**
 * A feed with no stream open.
 *
 * @example
 * const feed = createExchangeFeed();
 * feed.publish(null, exchange); // nothing: no stream is open
 */
export function createExchangeFeed({ heartbeat = everyHeartbeat }: FeedSettings = {}): ExchangeFeed {
  const readers = new Set<Reader>();
  let stopBeating: (() => void) | undefined;

  const sendAll = (chunk: Uint8Array) => {
    for (const reader of readers) reader.send(chunk);
  };
  const forget = (reader: Reader) => {
    readers.delete(reader);
    if (readers.size === 0) stopBeating = (stopBeating?.(), undefined);
  };

  /** A stream that ends when its reader cancels it, when `signal` aborts (node:http: the connection closed) or when it overflows. */
  function openStream(signal: AbortSignal): ReadableStream<Uint8Array> {
    let reader: Reader;
    let ended = false;
    const end = (controller: ReadableStreamDefaultController<Uint8Array>, last?: Uint8Array) => {
      if (ended) return;
      ended = true;
      forget(reader);
      if (last) controller.enqueue(last);
      controller.close();
    };
    return new ReadableStream<Uint8Array>(
      {
        start(controller) {
          reader = {
            send(chunk) {
              // The queue counts the bytes not yet read; one chunk more than it holds ends the stream.
              if (chunk.byteLength > (controller.desiredSize ?? 0)) end(controller, OVERFLOW);
              else controller.enqueue(chunk);
            },
          };
          readers.add(reader);
          stopBeating ??= heartbeat(() => sendAll(HEARTBEAT));
          controller.enqueue(OPENED);
          signal.addEventListener('abort', () => end(controller), { once: true });
        },
        cancel() {
          ended = true;
          forget(reader);
        },
      },
      { highWaterMark: STREAM_QUEUE_BYTES, size: (chunk) => chunk.byteLength },
    );
  }

  const route = {
    path: FEED_PATH,
    methods: {
      GET(request: Request, { ResponseClass = Response }: Host) {
        if (readers.size >= MAX_STREAMS) throw FULL;
        const init = { status: 200, statusText: reasonPhrase(200), headers: STREAM_HEADERS };
        return request.method === 'HEAD' ? new ResponseClass(null, init) : endlessAnswer(new ResponseClass(openStream(request.signal), init));
      },
    },
  };

  return {
    publish(sandbox, exchange) {
      // The common case, every journaled request while no dashboard watches: one size check.
      if (readers.size === 0) return;
      sendAll(encoder.encode(`event: exchange\ndata: ${JSON.stringify({ sandbox, exchange })}\n\n`));
    },
    answer: (request, host) => answerOn(route, request, host),
  };
}
