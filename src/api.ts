/** The API: the request path (edge, cors, auth, limits, route, operation, storage, response) wired top-down, as replies or as Responses. */
import { createAuthenticator, type Caller } from './auth/auth.ts';
import { corsHeaders, isPreflight } from './cors/cors.ts';
import type { BuildFlags } from './build-flags.ts';
import { createAddressWarnings } from './edge/address-warnings.ts';
import { createCallerAddress } from './edge/caller-address.ts';
import { bodyReadByHost, type Host } from './edge/host.ts';
import type { RequestNotes } from './edge/telemetry.ts';
import { requestTarget, type Target } from './edge/target.ts';
import type { Answer, Handle, Injected } from './handle.ts';
import { anonymousSubject } from './limits/address.ts';
import { banHoldOf } from './limits/ban-hold.ts';
import { createRateLimiter, type LimitRuling } from './limits/limiter.ts';
import { PLAN_QUOTAS, planQuota } from './limits/plans.ts';
import type { ApiRequest } from './operations/request.ts';
import { createRoutes } from './operations/routes.ts';
import type { ResolvedOptions } from './options.ts';
import { ApiError } from './response/api-error.ts';
import { errorReply, injectedReply, render, withHeaders, type Reply } from './response/reply.ts';
import { DOCS_URL } from './response/warning.ts';
import { cachedReadiness, type ReadinessCheck } from './storage/readiness.ts';
import { allowedMethods, handlerFor, matchRoute } from './route/route.ts';

const UNDECLARED =
  'A request came for a path of this API with a prefix in front of it: the host left its mount prefix on the path without naming it, so it is a 404';
const DECLARE =
  "A server that mounts the API under a prefix and leaves it on the path passes that prefix as mountPath (petstore.fetch(request, { mountPath: '/api' })).";

/**
 * The most segments a mount prefix is looked for in (`/api`, `/services/pets/api`): a keyless
 * client's 404 costs at most this many route matches, however many slashes its path has.
 */
const PREFIX_SEGMENTS = 4;

/** What `OPTIONS *` answers: every method the server serves somewhere. */
export const SERVER_METHODS = 'GET, HEAD, POST, OPTIONS';

/**
 * `GET /healthz` at the mount path's root, beside the API rather than in it: a load balancer's
 * liveness probe needs no key, spends no quota, and is not an operation of the OpenAPI document.
 */
const HEALTH_ROUTE: ProbeRoute = { path: '/healthz', methods: { GET: (): Reply => ({ status: 200, json: '{"status":"ok"}' }) } };

/** A probe's route: a path at the mount path's root and the one method it serves, GET (HEAD with it). */
interface ProbeRoute {
  readonly path: string;
  readonly methods: { readonly GET: () => Reply | Promise<Reply> };
}

/**
 * Where the admin API answers when it is on (controls/admin/admin.ts takes those paths first): with it
 * off, a request there meets this 404, which says how to turn it on rather than where the API is.
 */
const isAdminPath = (pathname: string) => pathname === '/__admin' || pathname.startsWith('/__admin/');
const adminOff = () =>
  new ApiError({
    status: 404,
    code: 'not_found',
    message:
      'The admin API is off: start the command with --admin-token or PETSTORE_ADMIN_TOKEN, or pass the admin option ({ admin: { token } }) in code. ' +
      `See ${DOCS_URL}/testing.md#over-http-the-admin-api`,
  });

/** The request path for resolved options, as Responses: what the controls rebuild on every reset. */
export function createHandle(config: ResolvedOptions): Handle {
  return handleOf(createAnswer(config));
}

/** `answer` with its replies rendered as Responses of the host's class: what the layers around the API wrap. */
export function handleOf(answer: Answer): Handle {
  return async (request, host, injected) =>
    render(await answer(request, host, injected), { head: request.method === 'HEAD', ResponseClass: host.ResponseClass });
}

/** The request path for resolved options, as replies: every rule of the API, for both ways out (a Response, or node:http written directly). */
export function createAnswer(config: ResolvedOptions): Answer {
  const callerAddress = createCallerAddress(config);
  const checkAddress = (globalThis as BuildFlags).__PETSTORE_WITHOUT_ADDRESS_WARNINGS__ ? () => {} : createAddressWarnings(config);
  const authenticate = createAuthenticator(config.apiKeys);
  const limit = createRateLimiter(config);
  const holdBan = (globalThis as BuildFlags).__PETSTORE_WITHOUT_BAN_HOLD__ ? undefined : banHoldOf(config.banHold, config.warnings);
  const routes = createRoutes(config);
  const { storage, limitStore } = config;
  const stores: ReadinessCheck[] = [
    { keeps: 'pets', database: storage.database, ping: storage.ping?.bind(storage) },
    { keeps: 'rate limits', database: limitStore.database, ping: limitStore.ping?.bind(limitStore) },
  ];
  /** `GET /readyz` beside `/healthz`: the readiness probe, 503 while a database the stores keep their data in does not answer. */
  const readyRoute: ProbeRoute = { path: '/readyz', methods: { GET: cachedReadiness(stores, config.now) } };
  const probes = [HEALTH_ROUTE, readyRoute];

  /** Counts the request against its key, or against its client address when it has no valid key. */
  function rateLimit(request: ApiRequest, host: Host, caller: Caller | undefined) {
    if (caller) return limit(caller.subject, planQuota(caller.plan));
    const address = callerAddress(request, host);
    const subject = anonymousSubject(address, config.ipv6Subnet);
    checkAddress(request, host, address, subject);
    return limit(subject, PLAN_QUOTAS.free);
  }

  /**
   * A 404 for a path the API does not serve. When the path is one of the API's with a prefix in
   * front, the host left its mount prefix on the path without naming it: the answer names
   * `mountPath`, and the store warns once. The prefix is the client's text, so neither echoes it.
   */
  function notFound(pathname: string, served: string, message: string): ApiError {
    if (!prefixedRoute(pathname)) return new ApiError({ status: 404, code: 'not_found', message });
    config.warnings.warn(
      'PETSTORE_PREFIX_NOT_DECLARED',
      `${UNDECLARED} (the API is served under ${served}/). ${DECLARE} See ${DOCS_URL}/mounting.md#what-your-server-may-tell-the-pet-store`,
    );
    return new ApiError({ status: 404, code: 'not_found', message: `${message} ${DECLARE}` });
  }

  /** Whether `pathname` is a path the API serves behind a prefix of up to {@link PREFIX_SEGMENTS} segments. */
  function prefixedRoute(pathname: string): boolean {
    let slash = pathname.indexOf('/', 1);
    for (let segments = 1; slash !== -1 && segments <= PREFIX_SEGMENTS; segments++, slash = pathname.indexOf('/', slash + 1)) {
      const rest = pathname.slice(slash);
      const path = pathUnderBase(rest, config.basePath);
      if (probes.some((probe) => probe.path === rest) || (path !== undefined && matchRoute(routes, path))) return true;
    }
    return false;
  }

  /** The reply to one request; an ApiError thrown past the limits step still carries the step's headers. */
  async function answer(request: ApiRequest, target: Target | '*', host: Host, injected: Injected | undefined): Promise<Reply> {
    if (target === '*') return unlessInjected({ status: 204, headers: { Allow: SERVER_METHODS } }, injected);
    const { notes } = host;
    const probe = probes.find((route) => route.path === target.pathname);
    if (probe) {
      if (notes) notes.route = probe.path;
      // Refused before anything reads it, whatever the method: a probe's body is never wanted.
      if (declaresBody(request)) return unlessInjected(errorReply(bodyRefused(probe.path), config.onError), injected);
      return unlessInjected(await probeReply(request, probe), injected, allowedMethods(probe));
    }
    const path = pathUnderBase(target.pathname, config.basePath);
    const served = `${target.mountPath}${config.basePath}`;
    if (path === undefined && isAdminPath(target.pathname)) throw adminOff();
    if (path === undefined) throw notFound(target.pathname, served, `This API is served under ${served}/.`);
    // Where the URLs we write start: never the request's Host, which the client chose.
    const base = config.publicUrl ?? served;
    // Preflights are neither authenticated nor counted: browsers send them on their own.
    if (isPreflight(request)) return unlessInjected({ status: 204 }, injected);
    const match = matchRoute(routes, path);
    if (notes && match) notes.route = `${config.basePath}${match.route.path}`;
    // Before routing, so an anonymous caller cannot tell existing paths from others.
    const authentication = match?.route.public ? undefined : authenticate(request);
    const caller = authentication && 'caller' in authentication ? authentication.caller : undefined;
    // A limit store that fails is answered like any failure, still with the route's headers. Here
    // and below try/catch, not .catch(): no extra promise and tick per request (BENCHMARKS.md, HTTP: the POST row).
    let quota: { headers: Readonly<Record<string, string>>; refusal?: unknown; ruling?: LimitRuling; banMs?: number };
    try {
      quota = await rateLimit(request, host, caller);
    } catch (error) {
      quota = { headers: {}, refusal: error };
    }
    // Tarpitting: a banned caller's 429 waits (ban-hold.ts); any other request pays the one comparison.
    // The flag again, where the service worker's bundler folds it and drops the block (a local's value it does not know).
    if (quota.ruling === 'ban' && !(globalThis as BuildFlags).__PETSTORE_WITHOUT_BAN_HOLD__ && holdBan) {
      const heldMs = await holdBan();
      if (notes) notes.banHeldMs = heldMs;
    }
    if (notes) note(notes, caller, quota);
    // Most routes add no headers of their own: then the quota's are used as they are.
    const routeHeaders = match?.route.headers?.(base);
    const headers = routeHeaders ? Object.assign({}, routeHeaders, quota.headers) : quota.headers;
    // A fault's error answers in the operation's place, whatever the steps before decided, as a
    // failing storage would; with afterHandling the operation's work is done first.
    if (injected && !injected.afterHandling) return injectedAt(injected, headers, match && allowedMethods(match.route));
    // A refusal is answered, not thrown: a throw costs a refused request more than its answer (BENCHMARKS.md, HTTP: the 429 row).
    const refusal = quota.refusal ?? (authentication && 'error' in authentication ? authentication.error : undefined);
    let reply: Reply;
    if (refusal !== undefined) reply = errorReply(refusal, config.onError);
    else {
      try {
        // The path is not echoed: it is the client's text, and could carry anything, a key included.
        if (!match) throw notFound(path, served, 'There is no such path in this API.');
        if (request.method === 'OPTIONS') reply = { status: 204, headers: { Allow: allowedMethods(match.route) } };
        else {
          const operation = handlerFor(match.route, request.method);
          const body = bodyReadByHost(host);
          reply = await operation({ request, body, query: target.searchParams, base, params: match.params, settings: config, keyId: caller?.keyId });
        }
      } catch (error) {
        reply = errorReply(error, config.onError);
      }
    }
    if (injected) return injectedAt(injected, headers, match && allowedMethods(match.route));
    return withHeaders(reply, headers);
  }

  /** The reply to one request, or the error it was refused with. */
  async function replyTo(request: ApiRequest, host: Host, injected: Injected | undefined): Promise<Reply> {
    let target: Target | '*';
    try {
      target = requestTarget(request, host);
    } catch (refusal) {
      // A request the edge refuses (a malformed Host or target, a repeated singleton header) never
      // reaches the place where a fault answers: its 400 stands, faults or not.
      return errorReply(refusal, config.onError);
    }
    try {
      return await answer(request, target, host, injected);
    } catch (error) {
      const reply = errorReply(error, config.onError);
      // A path outside the API: the fault still answers, with CORS only.
      return injected ? injectedAt(injected, {}, undefined) : reply;
    }
  }

  return async (request, host, injected) => withHeaders(await replyTo(request, host, injected), corsHeaders(request, config.cors));
}

/** `reply`, or the error a fault injected in its place: answered before the steps that add headers, it carries only CORS. */
function unlessInjected(reply: Reply, injected: Injected | undefined, allow?: string): Reply {
  return injected ? injectedAt(injected, {}, allow) : reply;
}

/**
 * The reply of the error a fault injected, with `headers` (what every answer to the request carries
 * there). An injected 405 says the methods of the path, `allow`, as a real 405 must (RFC 9110
 * §15.5.6); where no route is known, every method the server serves.
 */
function injectedAt(injected: Injected, headers: Readonly<Record<string, string>>, allow: string | undefined): Reply {
  if (injected.error.status !== 405) return injectedReply(injected.error, headers);
  return injectedReply(injected.error, Object.assign({}, headers, { Allow: allow ?? SERVER_METHODS }));
}

/** A probe's answer: its GET for GET and HEAD, its `Allow` for OPTIONS (a preflight too), and a 405 for a method it does not serve. */
function probeReply(request: ApiRequest, route: ProbeRoute): Reply | Promise<Reply> {
  if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: allowedMethods(route) } };
  return handlerFor(route, request.method)();
}

/**
 * Whether a request says a body follows: a `Content-Length` above 0, or any `Transfer-Encoding`
 * (RFC 9112 §6.1). Asked of the probes, which take none, before anything reads a byte of it.
 */
function declaresBody(request: ApiRequest): boolean {
  const length = request.headers.get('content-length');
  return request.headers.has('transfer-encoding') || (length !== null && !/^0*$/.test(length.trim()));
}

/**
 * The probes' answer to a body: a 413 (the body is larger than the none they take) with
 * `Connection: close`, as for a body over `maxBodyBytes`, so the server drops the unread rest with
 * the connection instead of reading a gigabyte to keep it open.
 */
function bodyRefused(path: string): ApiError {
  const message = `${path} takes no request body; send the request without one.`;
  return new ApiError({ status: 413, code: 'payload_too_large', message, headers: { Connection: 'close' } });
}

/** What the path noted of the caller and the limits' ruling, for telemetry. */
function note(notes: RequestNotes, caller: Caller | undefined, quota: { refusal?: unknown; ruling?: LimitRuling; banMs?: number }): void {
  if (caller) notes.plan = caller.plan;
  const ruling = quota.ruling ?? (quota.refusal === undefined ? 'admitted' : undefined);
  if (ruling) notes.limit = ruling;
  if (quota.banMs !== undefined) notes.banMs = quota.banMs;
}

/** The path after the base path (`''` for the base itself), or `undefined` outside it. */
function pathUnderBase(pathname: string, basePath: string): string | undefined {
  if (pathname === basePath) return '';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
}
