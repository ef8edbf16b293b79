/** petstore-service/node: the Pet Store on node:http, with a URL, a close function and graceful shutdown. */
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPetStore, type PetStore, type PetStoreOptions } from '../../src/index.ts';

export { createPetStore } from '../../src/index.ts';

/** Options of {@link serve}: the store's options plus where and how to listen. */
export interface ServeOptions extends PetStoreOptions {
  /** TCP port; `0` picks a free one. Default 8080. */
  readonly port?: number;
  /** Interface to bind. Default `127.0.0.1`, so nothing is exposed by accident. */
  readonly host?: string;
  /** Close gracefully on SIGINT and SIGTERM, then let the process exit. Default `false`. */
  readonly handleSignals?: boolean;
  /** How long a graceful close waits for in-flight requests before cutting connections. Default 10 s. */
  readonly shutdownTimeoutMs?: number;
}

/** A listening Pet Store. `await using` closes it. */
export interface RunningPetStore extends AsyncDisposable {
  /** Base URL of the API, base path included, e.g. `http://127.0.0.1:8080/v1`. */
  readonly url: string;
  /** The underlying server, for timeouts or extra listeners. */
  readonly server: Server;
  /** The fetch handler the server runs. */
  readonly petstore: PetStore;
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
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
  const { port = 8080, host = '127.0.0.1', handleSignals = false, shutdownTimeoutMs = 10_000, ...storeOptions } = options;
  const petstore = createPetStore(storeOptions);
  // Tight header and request deadlines: a client that stalls cannot hold a socket for minutes.
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, petstore);
  const inFlight = trackResponses(server);
  server.listen(port, host);
  await once(server, 'listening');

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= shutdown(server, inFlight, petstore, shutdownTimeoutMs, onSignal));
  const onSignal = () => void close();
  if (handleSignals) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  const url = `${originOf(server.address() as AddressInfo)}${storeOptions.basePath ?? '/v1'}`;
  return { url, server, petstore, close, [Symbol.asyncDispose]: close };
}

/** Responses not yet finished, so a shutdown can ask their keep-alive sockets to close. */
function trackResponses(server: Server): Set<ServerResponse> {
  const responses = new Set<ServerResponse>();
  server.on('request', (_request, response: ServerResponse) => {
    responses.add(response);
    response.on('close', () => responses.delete(response));
  });
  return responses;
}

async function shutdown(
  server: Server,
  inFlight: Set<ServerResponse>,
  petstore: PetStore,
  timeoutMs: number,
  onSignal: () => void,
): Promise<void> {
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Without this, a keep-alive socket would outlive its last response until its idle timeout.
  for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
  server.on('request', (_request, response: ServerResponse) => (response.shouldKeepAlive = false));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  await closed;
  clearTimeout(timer);
  await petstore.dispose();
}

function originOf({ address, family, port }: AddressInfo): string {
  const host = address === '0.0.0.0' || address === '::' ? 'localhost' : address;
  return family === 'IPv6' && host !== 'localhost' ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
