/** petstore-service/deno: the Pet Store on Deno.serve, passing each client's address on for rate limits. */
import { createPetStore, type PetStore, type PetStoreOptions } from '../../src/index.ts';

export { createPetStore } from '../../src/index.ts';

/** The slice of the Deno namespace this adapter uses, so it type-checks without Deno's types. */
interface DenoServeHandlerInfo {
  readonly remoteAddr: { readonly hostname: string };
}
interface DenoHttpServer {
  readonly addr: { readonly hostname: string; readonly port: number };
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}
declare const Deno: {
  serve(
    options: { port?: number; hostname?: string; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: (request: Request, info: DenoServeHandlerInfo) => Response | Promise<Response>,
  ): DenoHttpServer;
};

/** Options of {@link serve}: the store's options plus where to listen. */
export interface DenoServeOptions extends PetStoreOptions {
  /** TCP port; `0` picks a free one. Default 8080. */
  readonly port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  readonly hostname?: string;
  /** Serve this handler (a test store, one behind faults) instead of one made from the options. */
  readonly handler?: PetStore;
}

/** A listening Pet Store on Deno. `await using` shuts it down. */
export interface DenoPetStoreServer extends AsyncDisposable {
  /** Base URL of the API, e.g. `http://127.0.0.1:8080/v1`. */
  readonly url: string;
  readonly petstore: PetStore;
  /** Stops accepting, finishes in-flight requests, then resolves. */
  close(): Promise<void>;
}

/**
 * Starts the Pet Store with `Deno.serve`.
 *
 * @example
 * import { serve } from 'petstore-service/deno';
 * const { url } = serve({ port: 8080, apiKeys: { 'my-key': 'free' } });
 */
export function serve(options: DenoServeOptions = {}): DenoPetStoreServer {
  const { port = 8080, hostname = '127.0.0.1', handler, ...storeOptions } = options;
  const petstore = handler ?? createPetStore(storeOptions);
  const server = Deno.serve({ port, hostname, onListen: () => {} }, (request, info) =>
    petstore.fetch(request, { clientAddress: info.remoteAddr.hostname }),
  );
  const close = () => server.shutdown();
  const url = `http://${server.addr.hostname}:${server.addr.port}${storeOptions.basePath ?? '/v1'}`;
  return { url, petstore, close, [Symbol.asyncDispose]: close };
}
