/** A composed product as the one object every host calls: a fetch handler, a node:http listener, and the handler Express, Koa, Fastify and Hono are handed, in one. */
import { callOf, HOW_TO_CALL, openNodeResponse } from '../hosts/framework.ts';
import { hostOf } from '../hosts/fetch.ts';
import { initRequest } from '../hosts/in-process.ts';
import type { NodeListener, Served } from '../hosts/node/listener.ts';
import { ApiError, errorReply, IN_PROCESS, isConnectionReset, render, wireReply, type Host } from '../src/index.ts';
import type { PetStore } from './handler.ts';

/**
 * An answer in front of the store on node:http, handed node:http's request and response as the
 * store was: true when it answered the exchange itself (the command's `/metrics`, which no hook,
 * log or quota sees), false to leave it to the store.
 *
 * @example
 * const front: NodeFront = (req, res) => isMetricsTarget((req as IncomingMessage).url) && answered(req, res);
 */
export type NodeFront = (req: unknown, res: unknown) => boolean;

/** What {@link toPetStore} serves: a composed product, the path its API is under, and what answers in front of it on node:http. */
interface Product extends Served {
  readonly config: { readonly basePath: string };
  readonly front?: NodeFront | undefined;
}

/**
 * `product` as a {@link PetStore}: one function, and `fetch` the same one, that serves whatever
 * it is called with (see hosts/framework.ts). It sniffs its arguments and hands them to one of
 * three named, typed members: `handleRequest` for a Request, with the host read from what follows
 * it; `fetchUrl` for a URL and init, which become the runtime's own Request, leaving the caller's
 * init untouched; `handleNode` for a node:http exchange, which the product's `front` may answer
 * before the node listener does.
 *
 * `serveNode` (hosts/node/listener.ts) is handed in by the products that serve node:http; a build
 * without it (the service worker) leaves node:http's bridge out, and answers a node:http call as
 * any call it cannot serve. `members` are a product's own (the test kit's standard `fetch`, its
 * keys and controls), laid over the store's as they are, getters kept live.
 *
 * @example
 * const petstore = toPetStore(compose({ config: resolveOptions({}) }), nodeListener);
 */
export function toPetStore(product: Product, serveNode?: (served: Served) => NodeListener): PetStore;
export function toPetStore<Members extends object>(
  product: Product,
  serveNode: ((served: Served) => NodeListener) | undefined,
  members: (store: PetStore) => Members,
): PetStore & Members;
export function toPetStore<Members extends object>(
  product: Product,
  serveNode?: (served: Served) => NodeListener,
  members?: (store: PetStore) => Members,
): PetStore | (PetStore & Members) {
  const listener = serveNode?.(product);
  // In process, a reset is what fetch does on a network error: it rejects (with the abort reason if the caller aborted).
  const answer = async (request: Request, host: Host): Promise<Response> => {
    const response = await product.handle(request, host);
    if (!isConnectionReset(response)) return response;
    throw request.signal.aborted ? request.signal.reason : new TypeError('fetch failed: the connection was reset (an injected network fault)');
  };
  const handleRequest = (request: Request, contexts: readonly unknown[]): Promise<Response> => answer(request, hostOf(request, contexts));
  const fetchUrl = (input: string | URL, init: RequestInit | undefined, contexts: readonly unknown[]): Promise<Response> => {
    // A plain product and a plain init: the reply rendered straight from a request view (hosts/in-process.ts).
    const plain = product.answer && contexts.length === 0 ? initRequest(input, init) : undefined;
    if (plain) return product.answer!(plain, IN_PROCESS).then((reply) => render(reply, { head: plain.method === 'HEAD' }));
    const request = new Request(input, init);
    return answer(request, contexts.length === 0 ? IN_PROCESS : { ...hostOf(request, contexts), inProcess: true });
  };
  const handleNode = (node: NodeListener, req: unknown, res: unknown, rest: readonly unknown[]): Promise<void> =>
    product.front?.(req, res) ? Promise.resolve() : node(req, res, ...rest);
  // One named parameter: Deno.serve reads a handler's length, and calls one of length 0 with no arguments.
  function petstore(this: unknown, input: unknown, ...rest: unknown[]): Promise<unknown> {
    const args = [input, ...rest];
    try {
      const call = callOf(args, this);
      if (call?.kind === 'request') return handleRequest(call.request, call.contexts);
      if (call?.kind === 'url') return fetchUrl(call.input, call.init, call.contexts);
      if (call?.kind === 'node' && listener) return handleNode(listener, call.req, call.res, call.rest);
      return Promise.resolve(misuse(args));
    } catch (error) {
      // A URL that is no URL, say: rejected, as the global fetch rejects it.
      return Promise.reject(error);
    }
  }
  // The one cast: a single function that sniffs its arguments serves every overload of PetStore,
  // which TypeScript cannot check of one implementation.
  const store = Object.assign(petstore, {
    fetch: petstore,
    basePath: product.config.basePath,
    dispose: async () => listener?.dispose(),
  }) as unknown as PetStore;
  if (!members) return store;
  layOver(store, members(store));
  return store;
}

/** Lays `members` over `store` as they are (a getter stays a getter), replacing what the store had of the same name. */
function layOver<Store extends object, Members extends object>(store: Store, members: Members): asserts store is Store & Members {
  Object.defineProperties(store, Object.getOwnPropertyDescriptors(members));
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
