/** The public type of what createPetStore returns, declared here so no host type or @whatwg-node type leaks into consumers' builds. */
import type { PetStoreContext } from '../src/index.ts';

// Every shape below is structural and minimal on purpose: src/ imports no runtime module, and a
// consumer's own types (Node's, Express's, Deno's, Bun's) must be assignable to these, so they
// name only what the handler reads. Consumers compile these declarations (`skipLibCheck: false`),
// so nothing here may need more than ES2022 and the fetch globals (Request, Response, URL), which
// the DOM and WebWorker libs, Deno and @types/node all declare.

/**
 * The part of a node:http `IncomingMessage` the handler reads. Node's own request type, and
 * every framework's that extends it (Express, Koa's `ctx.req`, Fastify's `request.raw`), fits.
 *
 * @example
 * import type { IncomingMessage } from 'node:http';
 * const fits = (req: IncomingMessage): NodeRequestLike => req;
 */
interface NodeRequestLike {
  readonly method?: string | undefined;
  /** The request target as it arrived (`/v1/pets?limit=5`). */
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The peer, whose address anonymous callers are limited by. */
  readonly socket?: { readonly remoteAddress?: string | undefined } | null | undefined;
  /** The body is read as a stream; a request object without `read` is not taken for a node request. */
  read(size?: number): unknown;
}

/**
 * The part of a node:http `ServerResponse` the handler writes to. Node's own response type, and
 * every framework's that extends it (Express's `res`, Koa's `ctx.res`, Fastify's `reply.raw`), fits.
 *
 * @example
 * import type { ServerResponse } from 'node:http';
 * const fits = (res: ServerResponse): NodeResponseLike => res;
 */
interface NodeResponseLike {
  setHeader(name: string, value: number | string | readonly string[]): unknown;
  write(chunk: Uint8Array | string): unknown;
  end(): unknown;
  once(event: string, listener: () => void): unknown;
}

/**
 * What `Deno.serve` passes a handler second: the connection's remote address, which the store
 * limits anonymous callers by. Deno's `Deno.ServeHandlerInfo` fits (TCP and Unix sockets alike).
 *
 * @example
 * Deno.serve((request, info) => petstore.fetch(request, info));
 */
interface DenoServeHandlerInfoLike {
  readonly remoteAddr: { readonly transport?: string; readonly hostname?: string };
}

/**
 * What `Bun.serve` passes its `fetch` second: the server, which knows each request's address.
 * Bun's `Server` fits.
 *
 * @example
 * Bun.serve({ fetch: (request, server) => petstore.fetch(request, server) });
 */
interface BunServerLike {
  requestIP(request: Request): { readonly address: string } | null;
}

/**
 * What @hono/node-server puts in Hono's `c.env` (its `HttpBindings`): the node:http request and
 * response, which Hono's `mount` passes on to the store.
 *
 * @example
 * app.get('/v1/*', (c) => petstore.fetch(c.req.raw, c.env));
 */
interface NodeHttpBindingsLike {
  readonly incoming: NodeRequestLike;
  readonly outgoing?: NodeResponseLike;
}

/**
 * Koa's context, as `app.use` and koa-mount hand it to middleware. The store answers on `ctx.res`
 * itself (it sets `ctx.respond = false`), using the body a parser left on `ctx.request.body` and
 * koa-mount's `ctx.mountPath`.
 *
 * @example
 * app.use(mount('/api', petstore)); // Koa
 */
interface KoaContextLike {
  readonly req: NodeRequestLike;
  readonly res: NodeResponseLike;
  readonly request: { readonly body?: unknown };
  readonly mountPath?: string | undefined;
  respond?: boolean | undefined;
}

/**
 * A Fastify route handler's request and reply. The store hijacks the reply and answers on
 * `reply.raw`, using the body Fastify parsed; called on a Fastify instance, it takes the
 * instance's prefix (left on the path by Fastify) as the mount path.
 *
 * @example
 * await app.register(async (api) => api.all('/*', petstore), { prefix: '/api' }); // Fastify
 */
interface FastifyRequestLike {
  readonly raw: NodeRequestLike;
  readonly body?: unknown;
}
interface FastifyReplyLike {
  readonly raw: NodeResponseLike;
  hijack(): unknown;
}

/**
 * Hono's context, as a route hands it to its handler: the store answers `c.req.raw` with the
 * caller's address from `c.env` (@hono/node-server's bindings).
 *
 * @example
 * app.all('/v1/*', petstore); // Hono
 */
interface HonoContextLike {
  readonly req: { readonly raw: Request };
  readonly env?: unknown;
}

/**
 * Everything a host may pass after the request: the documented {@link PetStoreContext}, or what
 * Deno, Bun and @hono/node-server pass on their own (the store reads the caller's address from it).
 *
 * @example
 * const context: PetStoreServerContext = { clientAddress: '203.0.113.7', mountPath: '/api' };
 * await petstore.fetch(request, context);
 */
type PetStoreServerContext = PetStoreContext | DenoServeHandlerInfoLike | BunServerLike | NodeHttpBindingsLike;

/**
 * The store's `fetch`: a `Request` with what the host knows, or a URL and `RequestInit` as the
 * global `fetch` takes them. It never rejects for an API error: those are responses. A standalone
 * function, so it can be passed around as it is. It is the store itself under another name: handed
 * to a framework in the framework's shape (Express's `app.use('/api', petstore.fetch)`), it serves
 * that shape as the store does.
 *
 * Several contexts are laid over the first, which stays whole, so a host's own object (Deno's
 * info, Bun's server) still reports the address when a router adds `mountPath` after it.
 *
 * @example
 * Bun.serve({ fetch: petstore.fetch });
 * Deno.serve({ handler: petstore.fetch });
 * Deno.serve((request, info) => petstore.fetch(request, info, { mountPath: '/api' }));
 * self.addEventListener('fetch', (event) => event.respondWith(petstore.fetch(event.request)));
 * const response = await petstore.fetch('http://localhost/v1/pets', { headers: { authorization: 'Bearer my-key' } });
 */
export interface PetStoreFetch {
  (request: Request, ...contexts: PetStoreServerContext[]): Promise<Response>;
  (url: string | URL, init?: RequestInit): Promise<Response>;
}

/**
 * What every Pet Store handler is, whatever its `fetch`: a node:http listener, Express middleware
 * and a `(request, context)` handler in one, with its base path. It is what `serve` and `listen`
 * take, so a {@link PetStore} and the test kit's `TestPetStore` both fit.
 *
 * @example
 * import { createServer } from 'node:http';
 * const handler: PetStoreHandler = createPetStore();
 * createServer(handler).listen(8080);
 */
export interface PetStoreHandler {
  /**
   * A node:http request listener. `context` tells what the host knows that the request does not:
   * a body its parser already read, the prefix it is mounted under. Resolves once the response
   * is written to `res`.
   */
  (req: NodeRequestLike, res: NodeResponseLike, context?: PetStoreContext): Promise<void>;
  /**
   * Express (or Connect) middleware, as in `app.use('/api', petstore)`: it answers every request
   * it is given (404 outside `basePath`), so it never calls `next`.
   */
  (req: NodeRequestLike, res: NodeResponseLike, next: (error?: unknown) => void): Promise<void>;
  /** Answers a `Request` with what the host knows about it, so `Deno.serve(petstore)` works. */
  (request: Request, ...contexts: PetStoreServerContext[]): Promise<Response>;
  /** Koa middleware, as in `app.use(mount('/api', petstore))`: it answers every request it is given, so it never calls `next`. */
  (context: KoaContextLike, next?: unknown): Promise<void>;
  /** A Fastify route handler, as in `app.all('/*', petstore)`. */
  (request: FastifyRequestLike, reply: FastifyReplyLike): Promise<void>;
  /** A Hono handler, as in `app.all('/v1/*', petstore)`. */
  (context: HonoContextLike, next?: unknown): Promise<Response>;
  /** The path every operation is under (`/v1` by default), for building the API's URL. */
  readonly basePath: string;
  /** Waits for work the handler still runs in the background; `serve()`'s `close()` calls it. */
  dispose(): Promise<void>;
}

/**
 * The Pet Store as one handler. Call it as a node:http request listener (`http.createServer`,
 * Express, or with `req`/`res` from Koa or Fastify), hand it to `Deno.serve`, or call
 * `petstore.fetch(request)` anywhere else (`Bun.serve({ fetch })`, Hono, a service worker).
 *
 * @example
 * import { createServer } from 'node:http';
 * const petstore = createPetStore();
 * createServer(petstore).listen(8080); // or app.use('/api', petstore) in Express
 * Deno.serve(petstore);
 * Bun.serve({ fetch: petstore.fetch });
 */
export interface PetStore extends PetStoreHandler {
  /** Answers a `Request` (with what the host knows), or a URL and init as the global `fetch` takes them. */
  readonly fetch: PetStoreFetch;
}
