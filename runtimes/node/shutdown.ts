/** Graceful close for node:http: stop accepting, finish in-flight requests, then cut what is left. */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { answeredEndlessly } from '../../hosts/node/listener.ts';

/**
 * The `close` function of a server: idempotent; resolves once every connection is gone.
 * Connections still busy after `timeoutMs` are cut.
 */
export function gracefulCloser(server: Server, timeoutMs: number): () => Promise<void> {
  // The latest response of each open connection: the one to close it after. Kept per connection:
  // with client-errors', a 'close' listener on every response was a large share of each
  // request's server CPU (BENCHMARKS.md, Findings).
  const latest = new Map<Socket, ServerResponse>();
  let closing: Promise<void> | undefined;
  server.on('connection', (socket: Socket) => socket.once('close', () => latest.delete(socket)));
  server.on('request', (request: { socket: Socket }, response: ServerResponse) => {
    // Once closing, keep-alive would let a socket outlive its last response until its idle timeout.
    if (closing) response.shouldKeepAlive = false;
    else latest.set(request.socket, response);
  });

  return () =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const response of latest.values()) {
        // An event stream never finishes: waiting for it would hold the close for the whole timeout.
        if (answeredEndlessly(response.req)) response.destroy();
        else if (!response.headersSent) response.shouldKeepAlive = false;
      }
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
      await closed;
      clearTimeout(timer);
    })());
}
