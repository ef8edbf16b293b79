/** The admin API: a fake backend's controls over HTTP under `/__admin`, outside the base path, behind a Bearer token. */
import {
  allowedMethods,
  anonymousSubject,
  ApiError,
  bearerToken,
  bodyReadByHost,
  createCallerAddress,
  createStrikes,
  errorReply,
  handlerFor,
  matchRoute,
  memoryLimitStore,
  readJson,
  render,
  pathBelowMount,
  requestTarget,
  type Handle,
  type Host,
  type Reply,
  type ResolvedOptions,
} from '../src/index.ts';
import { adminRoutes } from './admin-routes.ts';
import { pathAndQuery } from './journal.ts';
import type { Controls } from './controls.ts';
import { noSuchSandbox, sandboxRoutes } from './sandbox-routes.ts';
import type { Worlds } from './worlds.ts';

/** Where the admin API is mounted, under the host's mount path. */
export const ADMIN_PATH = '/__admin';

const isAdminPath = (pathname: string) => pathname === ADMIN_PATH || pathname.startsWith(`${ADMIN_PATH}/`);

/** A constant-time comparison, so the token cannot be guessed a character at a time from response times. */
function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) difference |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return difference === 0;
}

/** Resolved options with the admin API on. */
export type AdminOptions = ResolvedOptions & { readonly admin: { readonly token: string } };

/** The admin routes of one world, made once per world. */
const routesOfWorld = new WeakMap<Controls, ReturnType<typeof adminRoutes>>();
function worldRoutes(controls: Controls) {
  let routes = routesOfWorld.get(controls);
  if (!routes) routesOfWorld.set(controls, (routes = adminRoutes(controls)));
  return routes;
}

/** The routes `path` is among, and the path within them: `/sandboxes/{id}/…` is that sandbox's own admin API. */
function routesFor(path: string, { main, sandboxes }: Worlds, ofSandboxes: ReturnType<typeof sandboxRoutes>) {
  const below = /^\/sandboxes\/([^/]+)(\/.+)?$/.exec(path);
  if (!below) return { routes: path.startsWith('/sandboxes') ? ofSandboxes : worldRoutes(main), path };
  const sandbox = sandboxes.get(below[1]!);
  if (!sandbox) throw noSuchSandbox(below[1]!);
  return below[2] === undefined ? { routes: ofSandboxes, path } : { routes: worldRoutes(sandbox.controls), path: below[2] };
}

/** An admin request's path below `/__admin`, and the prefix the host mounted the store under (`''` for none). */
interface AdminTarget {
  readonly path: string;
  readonly mountPath: string;
}

/**
 * The worlds' handle with the admin API in front of it: requests under `/__admin` (below the mount
 * path) are answered here, never reaching the request path, its faults, limits or journals.
 */
export function withAdmin(worlds: Worlds, options: AdminOptions): Handle {
  const {
    admin: { token },
    maxBodyBytes,
    onError,
    ipv6Subnet,
  } = options;
  const { handle } = worlds;
  const ofSandboxes = sandboxRoutes(worlds.sandboxes);
  const callerAddress = createCallerAddress(options);
  // Wrong tokens are banned per address as refused API requests are (banThreshold, banDurationMs,
  // the option's clock), in a store of their own: a reset, which any caller with the token may
  // send, must not lift a guesser's ban, and a guesser's ban must not take the API's budget.
  const strikes = createStrikes({ ...options, limitStore: memoryLimitStore(), what: 'wrong admin tokens' });

  async function answer(request: Request, host: Host, { path: fullPath, mountPath }: AdminTarget): Promise<Reply> {
    const subject = anonymousSubject(callerAddress(request, host), ipv6Subnet);
    // A banned address is refused whatever it sends: otherwise the ban would only tell a guesser which token is right.
    const banned = await strikes.banned(subject);
    if (banned) throw banned;
    const authorization = request.headers.get('authorization');
    const given = bearerToken(authorization);
    if (given === undefined || !sameSecret(given, token)) {
      // No Authorization header guesses nothing (a browser's preflight, a first try): only a wrong one counts.
      const ban = authorization === null ? undefined : await strikes.strike(subject);
      if (ban) throw ban;
      throw new ApiError({
        status: 401,
        code: 'unauthorized',
        message: 'The admin API needs Authorization: Bearer <admin token>.',
        headers: { 'WWW-Authenticate': 'Bearer realm="petstore-admin"' },
      });
    }
    const { routes, path } = routesFor(fullPath, worlds, ofSandboxes);
    const match = matchRoute<(typeof routes)[number]>(routes, path);
    // Named under the host's mount (/api/__admin when mounted at /api), where the client can reach it.
    const document = `${mountPath}${ADMIN_PATH}/openapi.json`;
    if (!match) throw new ApiError({ status: 404, code: 'not_found', message: `There is no such path in the admin API; see ${document}.` });
    // For telemetry, the template: a sandbox's id is the client's text.
    if (host.notes) host.notes.route = `${ADMIN_PATH}${path === fullPath ? '' : '/sandboxes/{id}'}${match.route.path}`;
    if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: allowedMethods(match.route) } };
    const operation = handlerFor(match.route, request.method);
    return operation({ request, params: match.params, body: () => readJson(request, maxBodyBytes, bodyReadByHost(host)) });
  }

  const respond = (reply: Reply, request: Request, host: Host) => render(reply, { head: request.method === 'HEAD', ResponseClass: host.ResponseClass });

  return async (request, host) => {
    let admin: AdminTarget | undefined;
    try {
      const target = requestTarget(request, host);
      if (target !== '*' && isAdminPath(target.pathname)) admin = { path: target.pathname.slice(ADMIN_PATH.length), mountPath: target.mountPath };
    } catch (refusal) {
      // A target the edge refuses: the request path answers it with its 400 (journaled, and met by
      // faults), unless it was meant for the admin API, which is never faulted or journaled.
      if (isAdminPath(pathBelowMount(pathAndQuery(host.wire?.target ?? request.url).path, host))) return respond(errorReply(refusal, onError), request, host);
    }
    if (admin === undefined) return handle(request, host);
    const reply = await Promise.resolve()
      .then(() => answer(request, host, admin))
      .catch((error: unknown) => errorReply(error, onError));
    return respond(reply, request, host);
  };
}
