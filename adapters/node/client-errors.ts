/** Requests node:http cannot parse or that time out still get an Error body, never an empty reply. */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../../src/index.ts';

/** Node's error codes for unparseable or overlong requests, and what the client is told. */
function errorFor(code: string | undefined): ApiError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ApiError(408, 'request_timeout', 'The request took too long to arrive.');
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError(431, 'headers_too_large', 'The request headers are too large.');
  }
  return new ApiError(400, 'invalid_request', 'The request is not valid HTTP/1.1.');
}

/** Answers `clientError`s with a JSON Error body and closes the connection. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing can be sent on a reset or half-answered socket; just let it go.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const apiError = errorFor(error.code);
    const body = JSON.stringify(apiError.toJSON());
    socket.end(
      `HTTP/1.1 ${apiError.status} ${statusText(apiError.status)}\r\n` +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

function statusText(status: number): string {
  return { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[status] ?? 'Error';
}
