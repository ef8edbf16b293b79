/** petstore-service/node: the Pet Store on node:http, with a URL, a close function and graceful shutdown. */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPetStore, type ListeningPetStore, type ListenOptions } from '../../src/index.ts';
import { answerClientErrors } from './client-errors.ts';
import { gracefulCloser } from './shutdown.ts';

export { createPetStore } from '../../src/index.ts';
export { answerClientErrors } from './client-errors.ts';

/** Options of {@link serve}: the store's options plus where and how to listen. */
export interface ServeOptions extends ListenOptions {
  /** Interface to bind. Default `127.0.0.1`, so nothing is exposed by accident. */
  readonly host?: string;
  /** Close gracefully on SIGINT and SIGTERM, then let the process exit. Default `false`. */
  readonly handleSignals?: boolean;
  /** How long a graceful close waits for in-flight requests before cutting connections. Default 10 s. */
  readonly shutdownTimeoutMs?: number;
  /** Longest wait for a request's headers, idle new connections included; then 408. Default 10 s, at most `requestTimeoutMs`. */
  readonly headersTimeoutMs?: number;
  /** Longest wait for a whole request, body included; then 408. Default 30 s. */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open. Default 5 s. */
  readonly keepAliveTimeoutMs?: number;
}

/** A Pet Store listening on node:http. `await using` closes it. */
export interface RunningPetStore extends ListeningPetStore {
  /** The underlying server, for extra listeners or inspection. */
  readonly server: Server;
}

/**
 * Starts the Pet Store on node:http.
 *
 * @example
 * const { url, close } = await serve({ port: 0, apiKeys: { 'my-key': 'free' } });
 * await fetch(`${url}/pets`, { headers: { Authorization: 'Bearer my-key' } });
 * await close();
 */
export async function serve(options: ServeOptions = {}): Promise<RunningPetStore> {
  const {
    port = 8080,
    host = '127.0.0.1',
    handleSignals = false,
    shutdownTimeoutMs = 10_000,
    headersTimeoutMs = 10_000,
    requestTimeoutMs = 30_000,
    keepAliveTimeoutMs = 5_000,
    handler,
    ...storeOptions
  } = options;
  const petstore = handler ?? createPetStore(storeOptions);
  // Node refuses headers due after the whole request; a 0 turns a deadline off.
  const headersTimeout = requestTimeoutMs > 0 && headersTimeoutMs > 0 ? Math.min(headersTimeoutMs, requestTimeoutMs) : headersTimeoutMs;
  const deadlines = [headersTimeout, requestTimeoutMs].filter((ms) => ms > 0);
  // Tight deadlines, checked often: a client that stalls cannot hold a socket for minutes.
  const server = createServer({
    headersTimeout,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, ...deadlines),
    // The handler answers a missing Host with an Error body; Node's own 400 would have none.
    requireHostHeader: false,
  });
  // Before the handler, so the bookkeeping sees each response before anything is written to it.
  answerClientErrors(server);
  server.on('request', petstore);
  const close = gracefulCloser(server, () => petstore.dispose(), shutdownTimeoutMs);
  server.listen(port, host);
  await once(server, 'listening');
  if (handleSignals) {
    const onSignal = () => void close();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    server.once('close', () => process.off('SIGINT', onSignal).off('SIGTERM', onSignal));
  }
  const url = `${originOf(server.address() as AddressInfo)}${storeOptions.basePath ?? '/v1'}`;
  return { url, server, petstore, close, [Symbol.asyncDispose]: close };
}

function originOf({ address, family, port }: AddressInfo): string {
  const host = address === '0.0.0.0' || address === '::' ? 'localhost' : address;
  return family === 'IPv6' && host !== 'localhost' ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
