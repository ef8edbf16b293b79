/** What node:http refuses on its own (unparseable or late requests, CONNECT, Expect) gets an Error body, after the answers already owed. */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError, SERVER_METHODS } from '../../src/index.ts';
import { closeInStages, endInStages } from './staged-close.ts';

/** Node's error codes for unparseable or overlong requests, and what the client is told. */
function errorFor(code: string | undefined): ApiError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ApiError({ status: 408, code: 'request_timeout', message: 'The request took too long to arrive.' });
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError({ status: 431, code: 'headers_too_large', message: 'The request headers are too large.' });
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return new ApiError({ status: 413, code: 'payload_too_large', message: 'The chunk extensions of the request body are too large.' });
  }
  return new ApiError({ status: 400, code: 'invalid_request', message: 'The request is not valid HTTP/1.1.' });
}

const notAProxy = () =>
  new ApiError({
    status: 405,
    code: 'method_not_allowed',
    message: 'CONNECT is not supported: this server is not a proxy.',
    headers: { Allow: SERVER_METHODS },
  });
const http2Preface = () =>
  new ApiError({ status: 400, code: 'invalid_request', message: 'PRI is the HTTP/2 connection preface; this server speaks HTTP/1.1.' });
const expectationFailed = () => new ApiError({ status: 417, code: 'expectation_failed', message: 'The only Expect this server meets is 100-continue.' });

/** Headers and body of an Error response that ends its connection. */
function errorParts(error: ApiError) {
  const body = JSON.stringify(error.toJSON());
  const headers = {
    ...error.headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  return { headers, body };
}

/** The bytes of an Error response, for a socket no ServerResponse speaks for. */
function errorResponseBytes(error: ApiError): string {
  const { headers, body } = errorParts(error);
  const lines = Object.entries({ Date: new Date().toUTCString(), ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n${lines.join('')}\r\n${body}`;
}

/** What Node keeps on a socket while it parses it: the request the parser is reading. */
interface SocketWithParser extends Socket {
  readonly parser?: { readonly incoming?: { readonly method?: string } | null } | null;
}

/**
 * Per connection: its responses in request order (closed ones are dropped whenever the list is
 * looked at), and, once it failed, how many it still owes and what to do when none are left.
 */
interface Connection {
  readonly open: ServerResponse[];
  failed: boolean;
  /** Open responses a failed connection waits for before its last bytes. */
  owed: number;
  /** A PRI request line: answered in its request event, or its answer deferred until those owed before it are out. */
  preface?: 'answered' | 'deferred';
  whenDrained?: () => void;
}

/**
 * Answers what node:http reports about a connection instead of passing it to the handler: parse
 * errors, header and request deadlines, oversized headers (400, 408, 431), CONNECT (405) and an
 * `Expect` other than `100-continue` (417). Each gets a JSON Error body with `Connection: close`,
 * sent only after every response already owed on that connection, pipelined ones included; then
 * the connection closes, in stages: what the client still sends is read and dropped for up to
 * 2 s, so a client uploading when refused reads its answer rather than a TCP reset. Every other
 * answer with `Connection: close` (a 413 to an oversized body) closes its connection the same way. Call it once per server, right after creating it; `serve()` does. It speaks
 * for the whole server, so use it where the Pet Store is all the server serves, and create the
 * server with `requireHostHeader: false` so a request without Host gets the handler's JSON 400.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { answerClientErrors, createPetStore } from 'petstore-service/node';
 *
 * const server = createServer({ requireHostHeader: false, requestTimeout: 30_000 }, createPetStore());
 * answerClientErrors(server);
 * server.listen(8080);
 */
export function answerClientErrors(server: Server): void {
  closeInStages(server);
  const connections = new WeakMap<Duplex, Connection>();
  const connectionOf = (socket: Duplex) => {
    let connection = connections.get(socket);
    if (!connection) connections.set(socket, (connection = { open: [], failed: false, owed: 0 }));
    return connection;
  };
  // A connection's responses finish in request order, so the closed ones are the first ones.
  const stillOpen = (connection: Connection) => {
    while (connection.open[0]?.closed) connection.open.shift();
    return connection.open;
  };
  // Only a failed connection waits on its responses' 'close': with graceful close's, a 'close'
  // listener on every response was a large share of each request's server CPU (BENCHMARKS.md, Findings).
  const owe = (connection: Connection, response: ServerResponse) => {
    connection.owed++;
    response.once('close', () => {
      if (--connection.owed === 0) connection.whenDrained?.();
    });
  };
  const afterOpenResponses = (socket: Duplex, then: () => void) => {
    const connection = connectionOf(socket);
    connection.whenDrained = then;
    if (!connection.failed) {
      connection.failed = true;
      for (const response of stillOpen(connection)) owe(connection, response);
    }
    if (connection.owed === 0) then();
  };

  // Node queues pipelined responses itself but tells nobody when the last one is out: keep count.
  const track = (request: IncomingMessage, response: ServerResponse) => {
    const connection = connectionOf(request.socket);
    // A request that finished arriving after its connection failed (a late header) ends the connection
    // itself; so does one asking to Upgrade, since Node declines it and drops whatever was pipelined after.
    if (connection.failed || asksToUpgrade(request)) response.shouldKeepAlive = false;
    if (response.closed) return;
    // Node destroys the connection of a PRI request as soon as this event returns: answer while it can.
    if (request.method === 'PRI') {
      connection.preface = 'answered';
      return answerWith(response, http2Preface());
    }
    stillOpen(connection).push(response);
    if (connection.failed) owe(connection, response);
  };
  server.on('request', track);

  // Node destroys a connection the moment its parser meets a PRI request line (the HTTP/2 preface),
  // even with answers still owed to requests pipelined before it: those are paid first, then PRI's.
  server.on('connection', (socket: Socket) => {
    const destroy = socket.destroy;
    socket.destroy = function deferredForPreface(error?: Error) {
      const connection = connectionOf(socket);
      if (error !== undefined || connection.preface === 'deferred' || (socket as SocketWithParser).parser?.incoming?.method !== 'PRI') {
        return destroy.call(socket, error);
      }
      const answered = connection.preface === 'answered';
      connection.preface = 'deferred';
      socket.pause();
      afterOpenResponses(socket, () => endInStages(socket, answered ? '' : errorResponseBytes(http2Preface())));
      return socket;
    };
  });

  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    track(request, response);
    answerWith(response, expectationFailed());
  });

  // Without a 'connect' listener Node drops the socket unanswered. It also leaves it without an error listener.
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    afterOpenResponses(socket, () => endInStages(socket, errorResponseBytes(notAProxy())));
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset socket takes nothing more.
    if (error.code === 'ECONNRESET') return void socket.destroy();
    // Closing already (after a Connection: close answer), or failed before (the parser repeats its
    // error on every later chunk): let it finish what it is sending.
    if (!socket.writable || connections.get(socket)?.failed) return;
    const apiError = errorFor(error.code);
    const known = connections.get(socket);
    const last = known && stillOpen(known).at(-1);
    if (!last || last.req.complete) {
      // A malformed request after complete ones: their answers first, then ours for the rest.
      afterOpenResponses(socket, () => endInStages(socket, errorResponseBytes(apiError)));
      return;
    }
    // The failing request is the one the handler has (its body broke off or is too slow): answer it in place.
    if (!last.headersSent) answerWith(last, apiError);
    afterOpenResponses(socket, () => endInStages(socket));
    // The handler still waits for the body; fail its read (it then answers a 400 that goes nowhere).
    socket.once('close', () => {
      if (!last.req.complete) last.req.destroy(new Error('The connection closed before the request body was complete.'));
    });
  });
}

/** What llhttp takes for an upgrade: an Upgrade field and the `upgrade` token in Connection. */
function asksToUpgrade({ headers }: IncomingMessage): boolean {
  return headers.upgrade !== undefined && /(^|,)\s*upgrade\s*(,|$)/i.test(headers.connection ?? '');
}

/** Ends `response` with an Error body; Node closes the connection once it is written. */
function answerWith(response: ServerResponse, error: ApiError): void {
  const { headers, body } = errorParts(error);
  response.shouldKeepAlive = false;
  response.writeHead(error.status, headers).end(body);
}
