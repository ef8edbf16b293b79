/** What the host hands the handler besides the Request: its node:http request, its Response class, a body it read, the peer's address. */
import { Response as PonyfillResponse } from '@whatwg-node/server';
import type { HostBody } from '../operations/types.ts';
import type { PetStoreContext } from './context.ts';

/** What the edge reads of a node:http request when the handler runs under one (`http.createServer(petstore)`). */
export interface NodeRequestFields {
  readonly url?: string;
  /** Express: the prefix the request was mounted under, already removed from `url`. */
  readonly baseUrl?: string;
  /** Express (and any connect-style parser): the body it parsed, once the stream is read. */
  readonly body?: unknown;
  readonly readableEnded?: boolean;
  readonly httpVersion?: string;
  readonly rawHeaders?: readonly string[];
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  readonly socket?: { readonly remoteAddress?: string; readonly server?: { readonly maxHeadersCount?: number | null } };
}

/**
 * The Response class to answer with. Under node:http, @whatwg-node/server writes the response to
 * the socket itself, and its own Response (a ponyfill on Node) is the one it writes fastest; any
 * other host (Hono, Deno, Bun, a test calling `fetch`) gets the runtime's Response, which it can
 * read, clone and inspect as its own.
 */
export function responseClassFor(context: PetStoreContext): typeof Response {
  return (context as { res?: unknown }).res !== undefined && nodeRequestOf(context) ? PonyfillResponse : Response;
}

/** The node:http request behind this call, if the handler runs under node:http (directly or in a framework). */
export function nodeRequestOf(context: PetStoreContext): NodeRequestFields | undefined {
  const req = (context as { req?: NodeRequestFields }).req;
  return typeof req?.url === 'string' && Array.isArray(req.rawHeaders) ? req : undefined;
}

/**
 * The body the host already read, if it did: the context's `body`, or what a connect-style
 * parser (express.json()) left on the node request once it consumed the stream.
 */
export function bodyReadByHost(context: PetStoreContext): HostBody | undefined {
  const { bodyError } = context;
  if (bodyError !== undefined && bodyError !== null) {
    const failure = bodyError as { status?: unknown; statusCode?: unknown; body?: unknown };
    if (failure.status === 413 || failure.statusCode === 413) return { refused: 'too_large' };
    return typeof failure.body === 'string' ? { value: failure.body } : { refused: 'not_json' };
  }
  if (context.body !== undefined) return { value: context.body };
  const node = nodeRequestOf(context);
  return node?.readableEnded && node.body !== undefined ? { value: node.body } : undefined;
}

/** What the hosts we know put in the server context, read structurally so src/ imports no runtime. */
interface HostContext {
  /** node:http, Express, Koa, Fastify (through @whatwg-node/server's request listener). */
  readonly req?: { readonly socket?: { readonly remoteAddress?: string } };
  /** @hono/node-server's `c.env`, which Hono's `app.mount` passes on. */
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
  /** Deno.serve's handler info, when `Deno.serve(petstore)` calls the handler directly. */
  readonly remoteAddr?: { readonly hostname?: string };
  /** Bun's server, when `Bun.serve({ fetch: petstore.fetch })` calls the handler directly. */
  readonly requestIP?: (request: Request) => { readonly address?: string } | null;
}

/** The address of the peer that opened the connection, as the host reports it. */
export function peerAddress(request: Request, context: PetStoreContext): string | undefined {
  if (context.clientAddress !== undefined) return context.clientAddress;
  const host = context as HostContext;
  return (
    askHost(context, (object) => (typeof object.requestIP === 'function' ? (object.requestIP(request)?.address ?? undefined) : undefined)) ??
    askHost(context, (object) => object.remoteAddr?.hostname) ??
    host.req?.socket?.remoteAddress ??
    host.incoming?.socket?.remoteAddress
  );
}

/**
 * The first answer `ask` gets from the context or an object up its prototype chain.
 * @whatwg-node hands the handler `Object.create(hostObject)`, and what the host put there only
 * works on the real object: Deno's `remoteAddr` getter reads a private field, and Bun's
 * `requestIP` insists on its own server as `this`.
 */
function askHost<T>(context: PetStoreContext, ask: (object: HostContext) => T | undefined): T | undefined {
  for (let object: object | null = context; object !== null && object !== Object.prototype; object = Object.getPrototypeOf(object)) {
    try {
      const answer = ask(object as HostContext);
      if (answer !== undefined) return answer;
    } catch {
      // A wrapper around the host's object: its prototype is the object itself.
    }
  }
  return undefined;
}
