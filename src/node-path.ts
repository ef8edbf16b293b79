/** The Pet Store answering node:http directly: the same replies, read from an IncomingMessage and written with writeHead and end, with no Request or Response made. */
import type { PetStoreContext } from './edge/context.ts';
import type { Answer } from './handle.ts';
import { utf8Length, wireReply } from './response/reply.ts';

/** The part of a node:http IncomingMessage the direct path reads (the edge reads its raw target and header lines itself). */
interface NodeRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  on(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  readonly readableEnded?: boolean;
}

/** The part of a node:http ServerResponse the direct path writes. */
interface NodeResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: string): unknown;
  readonly writableEnded?: boolean;
  readonly destroyed?: boolean;
}

/** A node:http request and response, told apart from a Request and a server context. */
export function isNodeExchange(req: unknown, res: unknown): req is NodeRequest {
  return (
    typeof req === 'object' && req !== null && typeof (req as NodeRequest).on === 'function' && typeof (req as NodeRequest).headers === 'object' &&
    typeof res === 'object' && res !== null && typeof (res as NodeResponse).writeHead === 'function'
  );
}

/** Whether a request carries a body to read: node:http has one unless the method or the framing says none. */
function hasBody(req: NodeRequest): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The body of `req` as a stream that pulls from it: paused while the reader is behind, and never
 * destroyed when the reader stops early (a 413 still has to go out on that socket).
 */
function bodyStream(req: NodeRequest): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      req.on('data', (chunk: Uint8Array) => {
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.on('end', () => {
        ended = true;
        controller.close();
      });
      req.on('error', (error: unknown) => controller.error(error));
      // A client gone mid-body: the reader sees an error, never a short body taken as whole.
      req.on('close', () => {
        if (!ended && !req.readableEnded) controller.error(new Error('the request body ended early'));
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      req.pause();
    },
  });
}

/** A header of `req` as `Headers.get` returns it: repeated lines joined by ", ", absent as null. */
function headerOf(req: NodeRequest, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}

/**
 * `req` as the request path reads a Request: its method, `headers.get`, and a body stream made
 * when first read. Under node:http the edge takes the target from the raw request, so `url` is
 * made only if something asks.
 */
function requestView(req: NodeRequest): Request {
  let body: ReadableStream<Uint8Array> | null | undefined;
  const headers = { get: (name: string) => headerOf(req, name), has: (name: string) => headerOf(req, name) !== null };
  return {
    method: req.method ?? 'GET',
    headers,
    get body() {
      return (body ??= hasBody(req) ? bodyStream(req) : null);
    },
    get url() {
      return `http://${headerOf(req, 'host') ?? 'localhost'}${req.url ?? '/'}`;
    },
  } as unknown as Request;
}

/**
 * Answers `req` on `res` with `answer`: the host's extra contexts (a body it parsed, a mount
 * path) laid over `{ req, res }`, as @whatwg-node/server's request listener lays them.
 */
export async function answerNode(answer: Answer, req: NodeRequest, res: NodeResponse, context: PetStoreContext): Promise<void> {
  const request = requestView(req);
  const reply = await answer(request, context);
  if (res.writableEnded || res.destroyed) return;
  const { status, headers, body } = wireReply(reply, req.method === 'HEAD');
  // writeHead sends the header block at once, so node:http cannot count the body itself: without
  // its length the answer would go chunked.
  if (body !== null) headers['Content-Length'] = String(utf8Length(body));
  res.writeHead(status, headers);
  // One write: the header block and the body leave together.
  res.end(body ?? undefined);
}
