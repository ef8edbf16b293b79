/** petstore-service/bun: the Pet Store on Bun.serve, passing each client's address on for rate limits. */
import { createPetStore, type PetStore, type PetStoreOptions } from '../../src/index.ts';

export { createPetStore } from '../../src/index.ts';

/** The slice of Bun's API this adapter uses, so it type-checks without Bun's types. */
interface BunServer {
  readonly hostname: string;
  readonly port: number;
  requestIP(request: Request): { readonly address: string } | null;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun: {
  serve(options: {
    port?: number;
    hostname?: string;
    fetch: (request: Request, server: BunServer) => Response | Promise<Response>;
  }): BunServer;
};

/** Options of {@link serve}: the store's options plus where to listen. */
export interface BunServeOptions extends PetStoreOptions {
  /** TCP port; `0` picks a free one. Default 8080. */
  readonly port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  readonly hostname?: string;
  /** Serve this handler (a test store, one behind faults) instead of one made from the options. */
  readonly handler?: PetStore;
}

/** A listening Pet Store on Bun. `await using` stops it. */
export interface BunPetStoreServer extends AsyncDisposable {
  /** Base URL of the API, e.g. `http://127.0.0.1:8080/v1`. */
  readonly url: string;
  readonly petstore: PetStore;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/**
 * Starts the Pet Store with `Bun.serve`.
 *
 * @example
 * import { serve } from 'petstore-service/bun';
 * const { url } = serve({ port: 8080, apiKeys: { 'my-key': 'free' } });
 */
export function serve(options: BunServeOptions = {}): BunPetStoreServer {
  const { port = 8080, hostname = '127.0.0.1', handler, ...storeOptions } = options;
  const petstore = handler ?? createPetStore(storeOptions);
  const server = Bun.serve({
    port,
    hostname,
    fetch: (request, bunServer) => petstore.fetch(request, { clientAddress: bunServer.requestIP(request)?.address }),
  });
  const close = () => server.stop();
  const url = `http://${server.hostname}:${server.port}${storeOptions.basePath ?? '/v1'}`;
  return { url, petstore, close, [Symbol.asyncDispose]: close };
}
