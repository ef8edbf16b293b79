/** petstore-service/node: the Pet Store on node:http, with a URL, a close function and graceful shutdown. */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  LISTEN_OPTION_NAMES,
  listening,
  NODE_ONLY_OPTION_NAMES,
  originOf,
  readServeArguments,
  type ListeningPetStore,
  type ListenOptions,
  type Serve,
  type ServeOptions as ServeOptionsOf,
} from '../serve.ts';
import { answerClientErrors } from './client-errors.ts';
import { gracefulCloser } from './shutdown.ts';

export { createPetStore } from '../../compose/index.ts';
export type { ListeningPetStore, ListenOptions, Serve } from '../serve.ts';
export { answerClientErrors } from './client-errors.ts';

/** {@link ListenOptions} plus what only node:http offers: deadlines, and closing on signals. */
export interface NodeListenOptions extends ListenOptions {
  /** Close gracefully on SIGINT and SIGTERM, then let the process exit. Default `false`: a library should not take over your process's signals. */
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

/**
 * Options of `serve(options)` on Node: the store's options plus {@link NodeListenOptions}.
 *
 * @example
 * const options: ServeOptions = { port: 0, apiKeys: { 'my-key': 'free' }, requestTimeoutMs: 5_000 };
 */
export type ServeOptions = ServeOptionsOf<NodeListenOptions>;

/**
 * A Pet Store listening on node:http. `await using` closes it.
 *
 * @example
 * const { server } = await serve({ port: 0 });
 * server.on('connection', (socket) => socket.setNoDelay(true));
 */
export interface RunningPetStore extends ListeningPetStore {
  /** The underlying server, for extra listeners or inspection. */
  readonly server: Server;
}

/**
 * Starts the Pet Store on node:http: `serve(options)` makes a store, `serve(handler, listenOptions)`
 * serves one you have. Keys come from `apiKeys`, else from `PETSTORE_API_KEYS`. See {@link Serve}.
 *
 * @example
 * const { url, close } = await serve({ port: 0, apiKeys: { 'my-key': 'free' } });
 * await fetch(`${url}/pets`, { headers: { Authorization: 'Bearer my-key' } });
 * await close();
 */
export const serve: Serve<NodeListenOptions, RunningPetStore> = async (...args: unknown[]) => {
  const plan = readServeArguments<NodeListenOptions>(args, {
    listenOptionNames: [...LISTEN_OPTION_NAMES, ...NODE_ONLY_OPTION_NAMES],
    env: (name) => process.env[name],
  });
  const { petstore, port, hostname } = plan;
  const { handleSignals = false, shutdownTimeoutMs = 10_000, headersTimeoutMs = 10_000, requestTimeoutMs = 30_000, keepAliveTimeoutMs = 5_000 } = plan.listen;
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
  const stop = gracefulCloser(server, shutdownTimeoutMs);
  server.listen(port, hostname);
  await once(server, 'listening');
  const { address, port: boundPort } = server.address() as AddressInfo;
  const result = listening(originOf(address, boundPort), plan, stop, { server });
  if (handleSignals) {
    const onSignal = () => void result.close();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    server.once('close', () => process.off('SIGINT', onSignal).off('SIGTERM', onSignal));
  }
  return result;
};
