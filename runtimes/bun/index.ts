/** petstore-service/bun: the Pet Store on Bun.serve, passing each client's address on for rate limits. */
import { endlessAnswers } from '../endless-answers.ts';
import { LISTEN_OPTION_NAMES, listening, originOf, readServeArguments, type Serve } from '../serve.ts';

export { createPetStore } from '../../compose/index.ts';
export type { ListeningPetStore, ListenOptions, Serve, ServeOptions } from '../serve.ts';

/** The slice of Bun's API this adapter uses, so it type-checks without Bun's types. */
interface BunServer {
  readonly hostname: string;
  readonly port: number;
  requestIP(request: Request): { readonly address: string } | null;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun: {
  serve(options: { port?: number; hostname?: string; fetch: (request: Request, server: BunServer) => Response | Promise<Response> }): BunServer;
  env: Record<string, string | undefined>;
};

/**
 * Starts the Pet Store with `Bun.serve`: `serve(options)` makes a store, `serve(handler,
 * listenOptions)` serves one you have. Keys come from `apiKeys`, else from `PETSTORE_API_KEYS`.
 * See {@link Serve}.
 *
 * @example
 * import { serve } from 'petstore-service/bun';
 * const { url, close } = await serve({ port: 8080, apiKeys: { 'my-key': 'free' } });
 */
export const serve: Serve = async (...args: unknown[]) => {
  const plan = readServeArguments(args, { listenOptionNames: LISTEN_OPTION_NAMES, env: (name) => Bun.env[name] });
  const { petstore, port, hostname } = plan;
  const answers = endlessAnswers();
  const server = Bun.serve({
    port,
    hostname,
    fetch: (request, bunServer) => petstore(request, { clientAddress: bunServer.requestIP(request)?.address }).then(answers.through),
  });
  // stop() without `true` lets in-flight requests finish before it resolves; an open event stream never would.
  const close = () => {
    const stopped = server.stop();
    answers.endAll();
    return stopped;
  };
  return listening(originOf(server.hostname, server.port), plan, close);
};
