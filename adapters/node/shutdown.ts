/** Graceful close for node:http: stop accepting, finish in-flight requests, then cut what is left. */
import type { Server, ServerResponse } from 'node:http';

/**
 * The `close` function of a server: idempotent; resolves once every connection is gone.
 * Connections still busy after `timeoutMs` are cut.
 */
export function gracefulCloser(server: Server, timeoutMs: number): () => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let closing: Promise<void> | undefined;
  server.on('request', (_request, response: ServerResponse) => {
    // Once closing, keep-alive would let a socket outlive its last response until its idle timeout.
    if (closing) response.shouldKeepAlive = false;
    inFlight.add(response);
    response.on('close', () => inFlight.delete(response));
  });

  return () =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
      await closed;
      clearTimeout(timer);
    })());
}
