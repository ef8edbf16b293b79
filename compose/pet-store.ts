/** A composed product as the one object every host calls: a fetch handler, a node:http listener and Express middleware in one. */
import { hostOf } from '../hosts/fetch.ts';
import { nodeListener, type Served } from '../hosts/node/listener.ts';
import type { PetStore } from './handler.ts';

/** What {@link toPetStore} serves: a composed product and the path its API is under. */
interface Product extends Served {
  readonly config: { readonly basePath: string };
}

/** A Request, told apart from a node:http request (whose `headers` is a plain object). */
function isRequest(input: unknown): input is Request {
  return typeof input === 'object' && input !== null && typeof (input as Request).headers?.get === 'function' && 'url' in input;
}

/**
 * `product` as a {@link PetStore}. A Request goes straight to the handler with the host read from
 * what follows it; anything else is node:http's `(req, res)`, served by the node listener. A URL
 * and init become the runtime's own Request, leaving the caller's init untouched.
 *
 * @example
 * const petstore = toPetStore(compose({ config: resolveOptions({}) }));
 */
export function toPetStore(product: Product): PetStore {
  const listener = nodeListener(product);
  // In process, a reset is what fetch does on a network error: it rejects (with the abort reason if the caller aborted).
  const answer = async (request: Request, contexts: readonly unknown[]) => {
    const response = await product.handle(request, hostOf(request, contexts));
    if (response.type !== 'error') return response;
    throw request.signal.aborted ? request.signal.reason : new TypeError('fetch failed: the connection was reset (an injected network fault)');
  };
  const fetch = (input: Request | string | URL, ...rest: unknown[]) =>
    isRequest(input) ? answer(input, rest) : answer(new Request(input, rest[0] as RequestInit | undefined), rest.slice(1));
  const handler = (input: unknown, ...rest: unknown[]) => (isRequest(input) ? answer(input, rest) : listener(input, rest[0], ...rest.slice(1)));
  return Object.assign(handler, { fetch, basePath: product.config.basePath, dispose: () => listener.dispose() }) as unknown as PetStore;
}
