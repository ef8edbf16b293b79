/** createPetStore: the request path wired top-down (edge, cors, auth, limits, route, operation), wrapped in one server adapter. */
import { createServerAdapter } from '@whatwg-node/server';
import { createAuthenticator, type Caller } from '../src/auth/auth.ts';
import { corsHeaders, isPreflight } from '../src/cors/cors.ts';
import { adminHandle } from '../controls/admin.ts';
import { createCallerAddress } from '../src/edge/caller-address.ts';
import type { PetStoreContext } from '../src/edge/context.ts';
import { bodyReadByHost, responseClassFor } from '../src/edge/host.ts';
import { requestTarget } from '../src/edge/target.ts';
import type { Answer, Handle } from '../src/handle.ts';
import type { PetStore } from './handler.ts';
import { withHooks } from './hooks.ts';
import { anonymousSubject } from '../src/limits/address.ts';
import { createRateLimiter } from '../src/limits/limiter.ts';
import { PLAN_QUOTAS, planQuota } from '../src/limits/plans.ts';
import { answerNode, isNodeExchange } from '../runtimes/node/direct.ts';
import { createRoutes } from '../src/operations/routes.ts';
import { resolveOptions, type PetStoreOptions, type ResolvedOptions } from '../src/options.ts';
import { ApiError } from '../src/response/api-error.ts';
import { errorReply, render, withHeaders, type Reply } from '../src/response/reply.ts';
import { allowedMethods, handlerFor, matchRoute } from '../src/route/route.ts';

/** What `OPTIONS *` answers: every method the server serves somewhere. */
export const SERVER_METHODS = 'GET, HEAD, POST, OPTIONS';

/**
 * `GET /healthz` at the mount path's root, beside the API rather than in it: a load balancer's
 * liveness probe needs no key, spends no quota, and is not an operation of the OpenAPI document.
 */
const HEALTH_ROUTE = { path: '/healthz', methods: { GET: (): Reply => ({ status: 200, json: '{"status":"ok"}' }) } };

/**
 * Creates the Pet Store API as one handler. Options are checked now: a bad one throws a `TypeError`.
 *
 * @example
 * import { createServer } from 'node:http';
 * const petstore = createPetStore({ apiKeys: { 'my-key': 'free' } });
 * createServer(petstore).listen(8080); // GET http://localhost:8080/v1/pets
 */
export function createPetStore(options: PetStoreOptions = {}): PetStore {
  const config = resolveOptions(options);
  if (config.admin) return toPetStore(withHooks(adminHandle({ ...config, admin: config.admin }, { createHandle }), config), config.basePath);
  const answer = createAnswer(config);
  const plain = handleOf(answer);
  const handle = withHooks(plain, config);
  // Without hooks (withHooks left it as it was) nothing needs a Response: node:http gets the same replies written directly.
  return toPetStore(handle, config.basePath, handle === plain ? answer : undefined);
}

/**
 * The request path for resolved options, as Responses: what {@link createPetStore} wraps (in the
 * admin API and the hooks), and what the test kit and the CLI put faults in front of.
 */
export function createHandle(config: ResolvedOptions): Handle {
  return handleOf(createAnswer(config));
}

/** `answer` with its replies rendered as Responses of the host's class. */
function handleOf(answer: Answer): Handle {
  return async (request, context) => render(await answer(request, context), { head: request.method === 'HEAD', ResponseClass: responseClassFor(context) });
}

/** The request path for resolved options, as replies: every rule of the API, for both ways out (a Response, or node:http written directly). */
export function createAnswer(config: ResolvedOptions): Answer {
  const callerAddress = createCallerAddress(config);
  const authenticate = createAuthenticator(config.apiKeys);
  const limit = createRateLimiter(config);
  const routes = createRoutes(config);

  /** Counts the request against its key, or against its client address when it has no valid key. */
  function rateLimit(request: Request, context: PetStoreContext, caller: Caller | undefined) {
    if (caller) return limit(caller.subject, planQuota(caller.plan));
    return limit(anonymousSubject(callerAddress(request, context), config.ipv6Subnet), PLAN_QUOTAS.free);
  }

  /** The reply to one request; an ApiError thrown past the limits step still carries the step's headers. */
  async function answer(request: Request, context: PetStoreContext): Promise<Reply> {
    const target = requestTarget(request, context);
    if (target === '*') return { status: 204, headers: { Allow: SERVER_METHODS } };
    if (target.pathname === HEALTH_ROUTE.path) return health(request);
    const path = pathUnderBase(target.pathname, config.basePath);
    if (path === undefined) {
      throw new ApiError({ status: 404, code: 'not_found', message: `This API is served under ${target.mountPath}${config.basePath}/.` });
    }
    // Where the URLs we write start: never the request's Host, which the client chose.
    const base = config.publicUrl ?? `${target.mountPath}${config.basePath}`;
    // Preflights are neither authenticated nor counted: browsers send them on their own.
    if (isPreflight(request)) return { status: 204 };
    const match = matchRoute(routes, path);
    // Before routing, so an anonymous caller cannot tell existing paths from others.
    const authentication = match?.route.public ? undefined : authenticate(request);
    const caller = authentication && 'caller' in authentication ? authentication.caller : undefined;
    // A limit store that fails is answered like any failure, still with the route's headers. Here
    // and below try/catch, not .catch(): no extra promise and tick per request (bench: the POST row).
    let quota: { headers: Readonly<Record<string, string>>; refusal?: unknown };
    try {
      quota = await rateLimit(request, context, caller);
    } catch (error) {
      quota = { headers: {}, refusal: error };
    }
    // Most routes add no headers of their own: then the quota's are used as they are.
    const routeHeaders = match?.route.headers?.(base);
    const headers = routeHeaders ? Object.assign({}, routeHeaders, quota.headers) : quota.headers;
    let reply: Reply;
    try {
      if (quota.refusal !== undefined) throw quota.refusal;
      if (authentication && 'error' in authentication) throw authentication.error;
      // The path is not echoed: it is the client's text, and could carry anything, a key included.
      if (!match) throw new ApiError({ status: 404, code: 'not_found', message: 'There is no such path in this API.' });
      if (request.method === 'OPTIONS') reply = { status: 204, headers: { Allow: allowedMethods(match.route) } };
      else {
        const operation = handlerFor(match.route, request.method);
        const body = bodyReadByHost(context);
        reply = await operation({ request, body, query: target.searchParams, base, params: match.params, settings: config, keyId: caller?.keyId });
      }
    } catch (error) {
      reply = errorReply(error, config.onError);
    }
    return withHeaders(reply, headers);
  }

  return async (request, context) => {
    let reply: Reply;
    try {
      reply = await answer(request, context);
    } catch (error) {
      reply = errorReply(error, config.onError);
    }
    return withHeaders(reply, corsHeaders(request, config.cors));
  };
}

/** The answer of `/healthz`: OPTIONS (a preflight too) gets its `Allow`, a method it does not serve a 405. */
function health(request: Request): Reply {
  if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: allowedMethods(HEALTH_ROUTE) } };
  return handlerFor(HEALTH_ROUTE, request.method)();
}

/**
 * Several contexts as one (`fetch(request, c.env, { mountPath })`, as Hono's mount passes them):
 * the first stays the prototype, so a host object's getters and methods (Deno's info, Bun's
 * server) still answer, and the others' fields are laid over it.
 */
function merged(contexts: unknown[]): PetStoreContext {
  // The usual call, one context (node:http's { req, res }, Deno's info): nothing to lay over it.
  if (contexts.length === 1 && typeof contexts[0] === 'object' && contexts[0] !== null) return contexts[0];
  const [first, ...others] = contexts.filter((context): context is object => typeof context === 'object' && context !== null);
  if (!first) return {};
  return others.length === 0 ? first : Object.assign(Object.create(first) as object, ...others);
}

/** A Request, told apart from a node:http request (whose `headers` is a plain object). */
function isRequest(input: unknown): input is Request {
  return typeof input === 'object' && input !== null && typeof (input as Request).headers?.get === 'function' && 'url' in input;
}

/**
 * `handle` as a {@link PetStore}, through one @whatwg-node/server adapter. Requests go to its
 * `handleRequest`: its `fetch` reads `request.signal` to race the answer against it, which makes
 * Deno warn on every request (legacy abort semantics), and there is nothing in the handler to
 * cancel. A URL and init become the runtime's own Request, leaving the caller's init untouched.
 * With `direct` (a plain store: no admin API, no hooks), node:http requests skip the bridge: the
 * same replies are written with writeHead and end (see node-path.ts).
 */
export function toPetStore(handle: Handle, basePath: string, direct?: Answer): PetStore {
  const adapter = createServerAdapter<PetStoreContext>(async (request, context) => {
    const response = await handle(request, context);
    if (response.type !== 'error') return response;
    // A reset injected by a fault: under node:http the connection is closed with no answer, and
    // the adapter gets a response to write into the closed socket (status 0 cannot be written).
    const socket = (context as { req?: { socket?: { destroy?: () => void } } }).req?.socket;
    if (typeof socket?.destroy !== 'function') return response;
    socket.destroy();
    return new Response(null, { status: 500 });
  });
  // In process, a reset is what fetch does on a network error: it rejects (with the abort reason if the caller aborted).
  const answer = async (request: Request, contexts: unknown[]) => {
    const response = await adapter.handleRequest(request, merged(contexts));
    if (response.type !== 'error') return response;
    throw request.signal.aborted ? request.signal.reason : new TypeError('fetch failed: the connection was reset (an injected network fault)');
  };
  const fetch = (input: Request | string | URL, ...rest: unknown[]) =>
    isRequest(input) ? answer(input, rest) : answer(new Request(input, rest[0] as RequestInit | undefined), rest.slice(1));
  const handler = (input: unknown, ...rest: unknown[]) => {
    if (isRequest(input)) return answer(input, rest);
    // node:http with a plain store: the same replies written directly, without the fetch bridge.
    if (direct && isNodeExchange(input, rest[0])) return answerNode(direct, input, rest[0] as never, merged([{ req: input, res: rest[0] }, ...rest.slice(1)]));
    return (adapter as (...args: unknown[]) => unknown)(input, ...rest);
  };
  return Object.assign(handler, { fetch, basePath, dispose: () => adapter.dispose() }) as unknown as PetStore;
}

/** The path after the base path (`''` for the base itself), or `undefined` outside it. */
function pathUnderBase(pathname: string, basePath: string): string | undefined {
  if (pathname === basePath) return '';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
}
