/** createPetStore: checks options, wires the request pipeline and wraps it in a server adapter. */
import { createServerAdapter, type ServerAdapter, type ServerAdapterBaseObject } from '@whatwg-node/server';
import type { PetStore } from './handler.ts';
import { ApiError, errorReply, render, type Reply } from './errors.ts';
import { resolveOptions, type PetStoreContext, type PetStoreOptions } from './options.ts';
import { createAuthenticator } from './pipeline/auth.ts';
import { corsHeaders, isPreflight } from './pipeline/cors.ts';
import { createCallerAddress } from './pipeline/caller.ts';
import { bodyReadByHost, requestTarget, responseClassFor } from './pipeline/edge.ts';
import { allowedMethods, createRoutes, matchRoute, operationFor } from './pipeline/route.ts';
import { PLAN_QUOTAS, planQuota } from './plans.ts';
import { anonymousSubject } from './rate-limit/address.ts';
import { createRateLimiter } from './rate-limit/limiter.ts';
import type { Caller } from './routes/types.ts';

export type { PetStoreContext } from './options.ts';

/** What `OPTIONS *` answers: every method the server serves somewhere. */
const SERVER_METHODS = 'GET, HEAD, POST, OPTIONS';

export type { PetStore } from './handler.ts';

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
  const callerAddress = createCallerAddress(config);
  const routes = createRoutes(config);
  const authenticate = createAuthenticator(config.apiKeys);
  const limit = createRateLimiter({
    store: config.rateLimitStore,
    now: config.now,
    banThreshold: config.banThreshold,
    banDurationMs: config.banDurationMs,
  });

  /** Counts the request against its key, or against its client address when it has no valid key. */
  async function rateLimit(request: Request, context: PetStoreContext, caller: Caller | undefined) {
    if (caller) return limit(caller.subject, planQuota(caller.plan));
    return limit(anonymousSubject(callerAddress(request, context), config.ipv6Subnet), PLAN_QUOTAS.free);
  }

  /**
   * The reply to one request, or a thrown ApiError. Headers every response must carry, errors
   * included, go into `headers`.
   */
  async function answer(request: Request, context: PetStoreContext, headers: Record<string, string>): Promise<Reply> {
    const target = requestTarget(request, context);
    if (target === '*') return { status: 204, headers: { Allow: SERVER_METHODS } };
    const path = pathUnderBase(target.pathname, config.basePath);
    if (path === undefined) throw new ApiError(404, 'not_found', `This API is served under ${target.mountPath}${config.basePath}/.`);
    // Where the URLs we write start: never the request's Host, which the client chose.
    const base = config.publicUrl ?? `${target.mountPath}${config.basePath}`;
    // Preflights are neither authenticated nor counted: browsers send them on their own.
    if (isPreflight(request)) return { status: 204 };
    const match = matchRoute(routes, path);
    if (match?.route.headers) Object.assign(headers, match.route.headers(base));
    // Before routing, so an anonymous caller cannot tell existing paths from others.
    const authentication = match?.route.public ? undefined : authenticate(request);
    const caller = authentication && 'caller' in authentication ? authentication.caller : undefined;
    const quota = await rateLimit(request, context, caller);
    Object.assign(headers, quota.headers);
    if (quota.refusal) throw quota.refusal;
    if (authentication && 'error' in authentication) throw authentication.error;
    // The path is not echoed: it is the client's text, and could carry anything, a key included.
    if (!match) throw new ApiError(404, 'not_found', 'There is no such path in this API.');
    if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: allowedMethods(match.route) } };
    const operation = operationFor(match.route, request.method);
    const body = bodyReadByHost(context);
    return operation({ request, body, query: target.searchParams, base, params: match.params, options: config, caller });
  }

  async function handle(request: Request, context: PetStoreContext): Promise<Response> {
    const headers = corsHeaders(request, config.cors);
    const reply = await answer(request, context, headers).catch((error: unknown) => errorReply(error, config.onError));
    return render(reply, headers, request.method === 'HEAD', responseClassFor(context));
  }

  return toPetStore(createServerAdapter<PetStoreContext>(handle), config.basePath);
}

/**
 * Several contexts as one (`fetch(request, c.env, { mountPath })`, as Hono's mount passes them):
 * the first stays the prototype, so a host object's getters and methods (Deno's info, Bun's
 * server) still answer, and the others' fields are laid over it.
 */
function merged(contexts: unknown[]): PetStoreContext {
  const [first, ...others] = contexts.filter((context): context is object => typeof context === 'object' && context !== null);
  if (!first) return {};
  return others.length === 0 ? first : Object.assign(Object.create(first) as object, ...others);
}

/** A Request, told apart from a node:http request (whose `headers` is a plain object). */
function isRequest(input: unknown): input is Request {
  return typeof input === 'object' && input !== null && typeof (input as Request).headers?.get === 'function' && 'url' in input;
}

/**
 * The adapter as a {@link PetStore}. Requests go to its `handleRequest`: its `fetch` reads
 * `request.signal` to race the answer against it, which makes Deno warn on every request (legacy
 * abort semantics), and there is nothing in the handler to cancel. A URL and init become the
 * runtime's own Request, leaving the caller's init untouched.
 */
export function toPetStore(adapter: ServerAdapter<PetStoreContext, ServerAdapterBaseObject<PetStoreContext>>, basePath: string): PetStore {
  const answer = (request: Request, contexts: unknown[]) => adapter.handleRequest(request, merged(contexts));
  const fetch = (input: Request | string | URL, ...rest: unknown[]) =>
    isRequest(input) ? answer(input, rest) : answer(new Request(input, rest[0] as RequestInit | undefined), rest.slice(1));
  const handler = (input: unknown, ...rest: unknown[]) =>
    isRequest(input) ? answer(input, rest) : (adapter as (...args: unknown[]) => unknown)(input, ...rest);
  return Object.assign(handler, { fetch, basePath, dispose: () => adapter.dispose() }) as unknown as PetStore;
}

/** The path after the base path (`''` for the base itself), or `undefined` outside it. */
function pathUnderBase(pathname: string, basePath: string): string | undefined {
  if (pathname === basePath) return '';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
}
