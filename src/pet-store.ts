/** createPetStore: checks options, wires the request pipeline and wraps it in a server adapter. */
import { createServerAdapter, Response, type ServerAdapter, type ServerAdapterBaseObject } from '@whatwg-node/server';
import { ApiError, errorResponse } from './errors.ts';
import { resolveOptions, type PetStoreOptions } from './options.ts';
import { createAuthenticator } from './pipeline/auth.ts';
import { corsHeaders, isPreflight } from './pipeline/cors.ts';
import { allowedMethods, createRoutes, matchRoute, operationFor, type RouteMatch } from './pipeline/route.ts';

/** Per-request values a runtime adapter may pass as the server context. */
export interface PetStoreContext {}

/**
 * The Pet Store as one fetch handler: call `petstore.fetch(request)`, or hand it to
 * `http.createServer`, `Deno.serve`, `Bun.serve({ fetch })` or a service worker's `fetch` event.
 */
export type PetStore = ServerAdapter<PetStoreContext, ServerAdapterBaseObject<PetStoreContext>>;

/**
 * Creates the Pet Store API. Options are checked now: a bad one throws a `TypeError`.
 *
 * @example
 * import { createServer } from 'node:http';
 * const petstore = createPetStore({ apiKeys: { 'my-key': 'free' } });
 * createServer(petstore).listen(8080); // GET http://localhost:8080/v1/pets
 */
export function createPetStore(options: PetStoreOptions = {}): PetStore {
  const config = resolveOptions(options);
  const routes = createRoutes(config);
  const authenticate = createAuthenticator(config.apiKeys);

  /** The answer before finishing touches: success JSON or a thrown ApiError. */
  async function answer(request: Request, url: URL, match: RouteMatch | undefined): Promise<Response> {
    if (!match?.route.public) {
      // Before routing, so an anonymous caller cannot tell existing paths from others.
      const authentication = await authenticate(request);
      // Rate limiting plugs in here: it needs the caller (or, failing that, the client address).
      if ('error' in authentication) throw authentication.error;
    }
    if (!match) throw new ApiError(404, 'not_found', `There is no ${url.pathname}.`);
    if (request.method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: { Allow: allowedMethods(match.route) } });
    }
    const operation = operationFor(match.route, request.method);
    return operation({ request, url, params: match.params, options: config });
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = pathUnderBase(url.pathname, config.basePath);
    const match = path === undefined ? undefined : matchRoute(routes, path);
    let response: Response;
    if (isPreflight(request)) {
      response = new Response(null, { status: 204 });
    } else if (path === undefined) {
      response = errorResponse(new ApiError(404, 'not_found', `This API is served under ${config.basePath}/.`), config.onError);
    } else {
      response = await answer(request, url, match).catch((error: unknown) => errorResponse(error, config.onError));
    }
    return finish(request, response, {
      ...match?.route.headers,
      ...corsHeaders(request, config.cors),
    });
  }

  return createServerAdapter<PetStoreContext>(handle);
}

/** The path after the base path (`''` for the base itself), or `undefined` outside it. */
function pathUnderBase(pathname: string, basePath: string): string | undefined {
  if (pathname === basePath) return '';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
}

/** Adds the headers every response of this request carries; HEAD keeps headers, drops the body. */
function finish(request: Request, response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'Link' && response.headers.has('Link')) response.headers.append('Link', value);
    else response.headers.set(name, value);
  }
  if (request.method !== 'HEAD') return response;
  return new Response(null, { status: response.status, headers: response.headers });
}
