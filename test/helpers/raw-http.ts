/** A raw TCP client for the Node server: writes bytes as given, collects what comes back, parses HTTP/1.1 responses. */
import { connect, type Socket } from 'node:net';
import { expect } from 'vitest';

/** One parsed response. Header names are lowercase; repeated lines are joined with ", ". */
export interface RawResponse {
  readonly status: number;
  readonly reason: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** An open raw connection. */
export interface RawConnection {
  readonly socket: Socket;
  /** Writes unless the server already hung up (then the write would only fail with EPIPE). */
  write(data: string): void;
  /** Every byte received so far, as text. */
  received(): string;
  /** The complete responses received so far, in order. */
  responses(): RawResponse[];
  /** Resolves as soon as `done()` holds, checked now and on every chunk received; rejects if the connection closes first. */
  until(done: () => boolean): Promise<void>;
  /** Resolves once the connection is closed (by either side). */
  readonly closed: Promise<void>;
  /** Waits for the close, then returns every response; fails if bytes are left over that are no whole response. */
  untilClosed(): Promise<RawResponse[]>;
}

/**
 * Opens a raw connection to the host and port of `url`. With `allowHalfOpen`, it keeps its sending
 * side open after the server's FIN, as a client still uploading does; without, it closes it then.
 */
export async function rawConnect(url: string, { allowHalfOpen = false } = {}): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, allowHalfOpen });
  socket.on('error', () => {}); // writes after the server hung up fail with EPIPE or ECONNRESET; that is the point
  await new Promise((resolve) => socket.once('connect', resolve));
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const bytes = () => Buffer.concat(chunks);
  return {
    socket,
    write: (data) => void (socket.writable && socket.write(data)),
    received: () => bytes().toString('latin1'),
    responses: () => parseResponses(bytes()).responses,
    until: (done) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!done()) return;
          socket.off('data', check).off('close', fail);
          resolve();
        };
        const fail = () => (done() ? resolve() : reject(new Error(`closed first; received ${JSON.stringify(bytes().toString('latin1'))}`)));
        socket.on('data', check).once('close', fail);
        check();
      }),
    closed,
    async untilClosed() {
      await closed;
      const { responses, rest } = parseResponses(bytes(), true);
      expect(rest.toString('latin1'), 'bytes after the last whole response').toBe('');
      return responses;
    },
  };
}

/** Header lines joined into a request head, blank line included. */
export const requestHead = (lines: readonly string[]): string => lines.join('\r\n') + '\r\n\r\n';

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * Splits `bytes` into responses, pipelined ones included: bodies framed by Content-Length or
 * chunked coding, none for 1xx, 204 and 304. With `closed`, a response without either runs to
 * the end. Whatever does not form a whole response is returned as `rest`.
 */
export function parseResponses(bytes: Buffer, closed = false): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let at = 0;
  for (;;) {
    const headEnd = bytes.indexOf(HEAD_END, at);
    if (headEnd < 0) break;
    const [statusLine = '', ...lines] = bytes.subarray(at, headEnd).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
    if (!match) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const body = bodyOf(bytes, headEnd + HEAD_END.length, status, headers, closed);
    if (!body) break;
    responses.push({ status, reason: match[2]!, headers, body: body.text });
    at = body.end;
  }
  return { responses, rest: bytes.subarray(at) };
}

/** The body starting at `start` and where the response ends, or undefined if it has not fully arrived. */
function bodyOf(bytes: Buffer, start: number, status: number, headers: Record<string, string>, closed: boolean) {
  if (status < 200 || status === 204 || status === 304) return { text: '', end: start };
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = bytes.indexOf(CRLF, at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size in a response');
      if (size === 0) {
        // No trailers from this server: the last chunk is followed by the final CRLF.
        if (bytes.length < lineEnd + 4) return undefined;
        return { text: Buffer.concat(parts).toString('utf8'), end: lineEnd + 4 };
      }
      if (bytes.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  if (headers['content-length'] !== undefined) {
    const end = start + Number(headers['content-length']);
    return bytes.length < end ? undefined : { text: bytes.subarray(start, end).toString('utf8'), end };
  }
  return closed ? { text: bytes.subarray(start).toString('utf8'), end: bytes.length } : undefined;
}

/**
 * Asserts a raw Error response: `application/json`, `{ code, message, status }` with `status`
 * equal to the HTTP status, and `Connection: close`.
 */
export function expectRawError(response: RawResponse | undefined, status: number, code: string) {
  expect(response, `a ${status} response`).toBeDefined();
  const { headers, body } = response!;
  expect(response!.status).toBe(status);
  expect(headers['content-type']).toBe('application/json');
  expect(headers.connection).toBe('close');
  expect(Number(headers['content-length'] ?? Buffer.byteLength(body))).toBe(Buffer.byteLength(body));
  const error = JSON.parse(body) as Record<string, unknown>;
  expect(error).toMatchObject({ code, status, message: expect.any(String) });
  expect(Object.keys(error).every((key) => ['code', 'message', 'status', 'details'].includes(key))).toBe(true);
  return error;
}
