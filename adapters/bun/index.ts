/** petstore-service/bun: the Pet Store on Bun.serve, passing each client's address on for rate limits. */
import { createPetStore, type ListeningPetStore, type ListenOptions } from '../../src/index.ts';

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
export interface BunServeOptions extends ListenOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  readonly hostname?: string;
}

/**
 * Starts the Pet Store with `Bun.serve`.
 *
 * @example
 * import { serve } from 'petstore-service/bun';
 * const { url } = serve({ port: 8080, apiKeys: { 'my-key': 'free' } });
 */
export function serve(options: BunServeOptions = {}): ListeningPetStore {
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
