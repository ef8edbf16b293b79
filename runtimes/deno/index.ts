/** petstore-service/deno: the Pet Store on Deno.serve, passing each client's address on for rate limits. */
import { endlessAnswers } from '../endless-answers.ts';
import { LISTEN_OPTION_NAMES, listening, originOf, readServeArguments, type Serve } from '../serve.ts';

export { createPetStore } from '../../compose/index.ts';
export type { ListeningPetStore, ListenOptions, Serve, ServeOptions } from '../serve.ts';

/** The slice of the Deno namespace this adapter uses, so it type-checks without Deno's types. */
interface DenoServeHandlerInfo {
  readonly remoteAddr: { readonly hostname: string };
}
interface DenoHttpServer {
  readonly addr: { readonly hostname: string; readonly port: number };
  shutdown(): Promise<void>;
}
declare const Deno: {
  serve(
    options: { port?: number; hostname?: string; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: (request: Request, info: DenoServeHandlerInfo) => Response | Promise<Response>,
  ): DenoHttpServer;
  env: { get(name: string): string | undefined };
  permissions: { querySync(descriptor: { name: 'env'; variable: string }): { readonly state: string } };
};

/**
 * An environment variable, or `undefined` without `--allow-env`: asking first means a missing
 * permission neither throws nor stops a server to prompt on its terminal.
 */
function permittedEnv(name: string): string | undefined {
  return Deno.permissions.querySync({ name: 'env', variable: name }).state === 'granted' ? Deno.env.get(name) : undefined;
}

/**
 * Starts the Pet Store with `Deno.serve`: `serve(options)` makes a store, `serve(handler,
 * listenOptions)` serves one you have. Keys come from `apiKeys`, else from `PETSTORE_API_KEYS`
 * (read only under `--allow-env`). See {@link Serve}.
 *
 * @example
 * import { serve } from 'petstore-service/deno';
 * const { url, close } = await serve({ port: 8080, apiKeys: { 'my-key': 'free' } });
 */
export const serve: Serve = async (...args: unknown[]) => {
  const plan = readServeArguments(args, { listenOptionNames: LISTEN_OPTION_NAMES, env: permittedEnv });
  const { petstore, port, hostname } = plan;
  // onListen replaces Deno's own "Listening on" line: the caller prints the URL it wants.
  const answers = endlessAnswers();
  const server = Deno.serve({ port, hostname, onListen: () => {} }, (request, info) =>
    petstore(request, { clientAddress: info.remoteAddr.hostname }).then(answers.through),
  );
  // shutdown() waits for every answer in flight: an open event stream would hold it forever.
  const close = () => {
    const stopped = server.shutdown();
    answers.endAll();
    return stopped;
  };
  return listening(originOf(server.addr.hostname, server.addr.port), plan, close);
};
