/** petstore-service/deno: the Pet Store on Deno.serve, passing each client's address on for rate limits. */
import { createPetStore, type ListeningPetStore, type ListenOptions } from '../../src/index.ts';

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
export interface DenoServeOptions extends ListenOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  readonly hostname?: string;
}

/**
 * Starts the Pet Store with `Deno.serve`.
 *
 * @example
 * import { serve } from 'petstore-service/deno';
 * const { url } = serve({ port: 8080, apiKeys: { 'my-key': 'free' } });
 */
export function serve(options: DenoServeOptions = {}): ListeningPetStore {
  const { port = 8080, hostname = '127.0.0.1', handler, ...storeOptions } = options;
  const petstore = handler ?? createPetStore(storeOptions);
  const server = Deno.serve({ port, hostname, onListen: () => {} }, (request, info) =>
    petstore.fetch(request, { clientAddress: info.remoteAddr.hostname }),
  );
  const close = () => server.shutdown();
  const url = `http://${server.addr.hostname}:${server.addr.port}${storeOptions.basePath ?? '/v1'}`;
  return { url, petstore, close, [Symbol.asyncDispose]: close };
}
