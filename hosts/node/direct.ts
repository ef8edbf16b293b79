/** The Pet Store answering node:http directly: the same replies, read from an IncomingMessage and written with writeHead and end, with no Request or Response made unless user code asks for the Request. */
import { Request as NodeFetchRequest } from '@whatwg-node/fetch';
import { reasonPhrase, utf8Length, wireReply, type Answer, type Host, type RequestView } from '../../src/index.ts';
import { hasBody } from './host.ts';

/** The part of a node:http IncomingMessage the direct path reads (the edge reads its raw target and header lines itself). */
interface NodeRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  on(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  read(): unknown;
  readonly readableEnded?: boolean;
  readonly readableLength?: number;
  readonly readableFlowing?: boolean | null;
  /** A TLS socket (node:https) says so: the Request made for user code then has an https URL, as the bridge's has. */
  readonly socket?: { readonly encrypted?: boolean } | null | undefined;
}

/** The part of a node:http ServerResponse the direct path writes. */
interface NodeResponse {
  writeHead(status: number, reason: string, headers: Record<string, string>): unknown;
  end(body?: string): unknown;
  readonly writableEnded?: boolean;
  readonly destroyed?: boolean;
}

/** A node:http request and response, told apart from a Request and a server context. */
export function isNodeExchange(req: unknown, res: unknown): req is NodeRequest {
  return (
    typeof req === 'object' &&
    req !== null &&
    typeof (req as NodeRequest).on === 'function' &&
    typeof (req as NodeRequest).headers === 'object' &&
    typeof res === 'object' &&
    res !== null &&
    typeof (res as NodeResponse).writeHead === 'function'
  );
}

/**
 * Whether all of a Content-Length body is already parsed and waiting in `req`'s buffer, as bytes:
 * node:http parses a small body in the same read as its headers, and no more than Content-Length
 * of it, so the buffer holding that many bytes is the whole body.
 */
function isBuffered(req: NodeRequest): boolean {
  const length = req.headers['content-length'];
  return typeof length === 'string' && req.headers['transfer-encoding'] === undefined && req.readableLength === Number(length) && req.readableFlowing === null;
}

/** What `req` gives: bytes, or text once a host has called `setEncoding` on it. */
type Chunk = Uint8Array | string;
const UTF8 = new TextEncoder();
/** A chunk as bytes again: text a host decoded is encoded back as UTF-8, the one charset a JSON body is read in. */
const asBytes = (chunk: Chunk): Uint8Array => (typeof chunk === 'string' ? UTF8.encode(chunk) : chunk);

/** One read of a body, as a ReadableStream reader gives it. */
type BodyRead = ReadableStreamReadResult<Uint8Array>;

/**
 * The body of `req` read the way operations/body.ts reads a Request's (`getReader()`, then `read`
 * and `cancel`), without a web ReadableStream: making one was a large share of a POST (BENCHMARKS.md, Findings). Flowing only while a read waits, paused otherwise, and never destroyed when the reader
 * stops early (a 413 still has to go out on that socket).
 */
class NodeBodyReader {
  readonly #req: NodeRequest;
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #failure: unknown = undefined;
  #waiting: { resolve: (read: BodyRead) => void; reject: (error: unknown) => void } | undefined;

  constructor(req: NodeRequest) {
    this.#req = req;
    // A body already buffered is taken in one synchronous read: the stream's resume, 'data' and
    // 'end' ticks are a share of every POST (BENCHMARKS.md, Findings).
    if (isBuffered(req)) {
      const bytes = req.read() as Chunk | null;
      if (bytes !== null) this.#chunks.push(asBytes(bytes));
      this.#ended = true;
      return;
    }
    req.on('data', (data: Chunk) => {
      const chunk = asBytes(data);
      const waiting = this.#take();
      if (waiting) return waiting.resolve({ done: false, value: chunk });
      this.#chunks.push(chunk);
      req.pause();
    });
    req.on('end', () => {
      this.#ended = true;
      this.#take()?.resolve({ done: true, value: undefined });
    });
    req.on('error', (error: unknown) => this.#fail(error));
    // A client gone mid-body: the reader sees an error, never a short body taken as whole.
    req.on('close', () => {
      if (!this.#ended && !req.readableEnded) this.#fail(new Error('the request body ended early'));
    });
  }

  read(): Promise<BodyRead> {
    const chunk = this.#chunks.shift();
    if (chunk) return Promise.resolve({ done: false, value: chunk });
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#req.resume();
    });
  }

  cancel(): Promise<void> {
    this.#req.pause();
    return Promise.resolve();
  }

  #take() {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    return waiting;
  }

  #fail(error: unknown) {
    this.#failure ??= error;
    this.#take()?.reject(error);
  }
}

/**
 * `req` as the request path reads a Request: its method, `headers.get`, and a body reader made
 * when first read. Under node:http the edge takes the target from the raw request, so `url` is
 * made only if something asks, and the Request itself only if user code asks (the `clientAddress`
 * option; BENCHMARKS.md, HTTP: the 401 row). Classes, not object literals with getters: V8 gives each such
 * literal a hidden class of its own, so every place reading a request would see a new shape.
 */
class NodeRequestView implements RequestView {
  readonly method: string;
  readonly headers: NodeHeadersView;
  readonly #req: NodeRequest;
  #body: { getReader: () => NodeBodyReader } | null | undefined;
  #request: Request | undefined;

  constructor(req: NodeRequest) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    this.headers = new NodeHeadersView(req);
  }

  get body() {
    if (this.#body === undefined) {
      const reader = hasBody(this.#req) ? new NodeBodyReader(this.#req) : null;
      this.#body = reader && { getReader: () => reader };
    }
    return this.#body;
  }

  /** The URL the @whatwg-node bridge gives the same request. */
  get url(): string {
    return `${this.#req.socket?.encrypted ? 'https' : 'http'}://${this.headers.get('host') ?? 'localhost'}${this.#req.url ?? '/'}`;
  }

  /**
   * The request as the bridge makes it: a Request of @whatwg-node/fetch (a whole Request, though
   * not `instanceof` the global class) with the headers as `headers.get` reads them, and a body that
   * reads the same stream the path reads, once something reads it. Node's own Request costs many
   * times this one to make (BENCHMARKS.md, Findings): a keyless caller pays it whenever the `clientAddress`
   * option is set (BENCHMARKS.md, HTTP: the 401 row).
   */
  toRequest(): Request {
    if (this.#request) return this.#request;
    let reader: NodeBodyReader | undefined;
    const body = hasBody(this.#req)
      ? new ReadableStream<Uint8Array>({
          pull: async (controller) => {
            reader ??= this.body!.getReader();
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
          cancel: () => this.#body?.getReader().cancel(),
        })
      : null;
    const headers: Record<string, string> = {};
    for (const name in this.#req.headers) {
      const value = headerValue(this.#req, name);
      if (value !== null) headers[name] = value;
    }
    this.#request = new NodeFetchRequest(this.url, { method: this.method, headers, body });
    return this.#request;
  }
}

/** A header of `req` as `Headers.get` reads it: repeated lines joined by ", ", absent as null. */
function headerValue(req: NodeRequest, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}

/** The headers of `req` as `Headers.get` and `has` read them. */
class NodeHeadersView {
  readonly #req: NodeRequest;

  constructor(req: NodeRequest) {
    this.#req = req;
  }

  // Node keeps the names in lower case, as HeaderReader asks them: looked up as they are.
  get(name: Lowercase<string>): string | null {
    return headerValue(this.#req, name);
  }

  has(name: Lowercase<string>): boolean {
    return this.get(name) !== null;
  }
}

/** Answers `req` on `res` with `answer`, the request's {@link Host} read from it beforehand. */
export async function answerNode(answer: Answer, req: NodeRequest, res: NodeResponse, host: Host): Promise<void> {
  const reply = await answer(new NodeRequestView(req), host);
  if (res.writableEnded || res.destroyed) return;
  const { status, headers, body, bodyBytes } = wireReply(reply, req.method === 'HEAD');
  // writeHead sends the header block at once, so node:http cannot count the body itself: without
  // its length the answer would go chunked.
  if (body !== null) headers['Content-Length'] = String(bodyBytes ?? utf8Length(body));
  // The phrase the bridge writes from the Response's statusText, so both paths' status lines match.
  res.writeHead(status, reasonPhrase(status), headers);
  // One write: the header block and the body leave together.
  res.end(body ?? undefined);
}
