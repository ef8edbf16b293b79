/** A composed product as the one object every host calls: a fetch handler, a node:http listener, and the handler Express, Koa, Fastify and Hono are handed, in one. */
import { callOf, HOW_TO_CALL, openNodeResponse } from '../hosts/framework.ts';
import { hostOf } from '../hosts/fetch.ts';
import { initRequest } from '../hosts/in-process.ts';
import type { NodeListener, Served } from '../hosts/node/listener.ts';
import { ApiError, errorReply, IN_PROCESS, isConnectionReset, render, wireReply, type Host } from '../src/index.ts';
import type { PetStore } from './handler.ts';

/** What {@link toPetStore} serves: a composed product and the path its API is under. */
interface Product extends Served {
  readonly config: { readonly basePath: string };
}

/**
 * `product` as a {@link PetStore}: one function, and `fetch` the same one, that serves whatever
 * it is called with (see hosts/framework.ts). A Request goes straight to the handler with the host
 * read from what follows it; a URL and init become the runtime's own Request, leaving the caller's
 * init untouched; a node:http exchange goes to the node listener.
 *
 * `serveNode` (hosts/node/listener.ts) is handed in by the products that serve node:http; a build
 * without it (the service worker) leaves node:http's bridge out, and answers a node:http call as
 * any call it cannot serve.
 *
 * @example
 * const petstore = toPetStore(compose({ config: resolveOptions({}) }), nodeListener);
 */
export function toPetStore(product: Product, serveNode?: (served: Served) => NodeListener): PetStore {
  const listener = serveNode?.(product);
  // In process, a reset is what fetch does on a network error: it rejects (with the abort reason if the caller aborted).
  const answer = async (request: Request, host: Host) => {
    const response = await product.handle(request, host);
    if (!isConnectionReset(response)) return response;
    throw request.signal.aborted ? request.signal.reason : new TypeError('fetch failed: the connection was reset (an injected network fault)');
  };
  // One named parameter: Deno.serve reads a handler's length, and calls one of length 0 with no arguments.
  function petstore(this: unknown, input: unknown, ...rest: unknown[]): Promise<unknown> {
    const args = [input, ...rest];
    try {
      const call = callOf(args, this);
      if (call?.kind === 'request') return answer(call.request, hostOf(call.request, call.contexts));
      if (call?.kind === 'url') {
        // A plain product and a plain init: the reply rendered straight from a request view (hosts/in-process.ts).
        const plain = product.answer && call.contexts.length === 0 ? initRequest(call.input, call.init) : undefined;
        if (plain) return product.answer!(plain, IN_PROCESS).then((reply) => render(reply, { head: plain.method === 'HEAD' }));
        const request = new Request(call.input, call.init);
        return answer(request, call.contexts.length === 0 ? IN_PROCESS : { ...hostOf(request, call.contexts), inProcess: true });
      }
      if (call?.kind === 'node' && listener) return listener(call.req, call.res, ...call.rest);
      return Promise.resolve(misuse(args));
    } catch (error) {
      // A URL that is no URL, say: rejected, as the global fetch rejects it.
      return Promise.reject(error);
    }
  }
  return Object.assign(petstore, { fetch: petstore, basePath: product.config.basePath, dispose: async () => listener?.dispose() }) as unknown as PetStore;
}

/** A call the store cannot serve: a JSON 500 saying how to call it, on a node:http response if one was passed, else a TypeError. */
function misuse(args: readonly unknown[]): void {
  const res = openNodeResponse(args);
  if (!res) throw new TypeError(HOW_TO_CALL);
  const { status, headers, body } = wireReply(
    errorReply(new ApiError({ status: 500, code: 'internal_error', message: HOW_TO_CALL }), () => {}),
    false,
  );
  res.writeHead(status, headers);
  res.end(body ?? '');
}
