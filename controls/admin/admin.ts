/** The admin API: a fake backend's controls over HTTP under `/__admin`, outside the base path, behind a Bearer token. */
import ipaddr from 'ipaddr.js';
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
  pathAndQuery,
  pathBelowMount,
  requestTarget,
  type Handle,
  type Host,
  type Reply,
  type ResolvedOptions,
  type Subject,
} from '../../src/index.ts';
import { adminRoutes } from './admin-routes.ts';
import type { Controls } from '../controls.ts';
import { pageAnswer } from '../dashboard/dashboard-page.ts';
import { FEED_PATH, type ExchangeFeed } from '../dashboard/exchange-feed.ts';
import { noSuchSandbox, sandboxRoutes } from './sandbox-routes.ts';
import type { Worlds } from '../worlds.ts';

/** Where the admin API is mounted, under the host's mount path. */
export const ADMIN_PATH = '/__admin';

const isAdminPath = (pathname: string) => pathname === ADMIN_PATH || pathname.startsWith(`${ADMIN_PATH}/`);

/** A constant-time comparison, so the token cannot be guessed a character at a time from response times. */
function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) difference |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return difference === 0;
}

/** The first ban for wrong admin tokens; each next one in the same UTC day doubles, up to `banDurationMs`. */
const FIRST_BAN_MS = 1_000;
/** The most callers remembered as having shown the token behind a forgeable header (see {@link guesserOf}). */
const KNOWN_CALLERS = 1_024;

const isLoopback = (address: string | undefined) => address !== undefined && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/**
 * Whom a wrong admin token is held against: `subject`, and with it `peer` when the caller's
 * address came from a header any peer may write (`trustProxy` as a hop count believes whoever
 * connects). Absent for a caller on this machine that no proxy speaks for.
 */
interface Guesser {
  readonly subject: Subject;
  readonly peer?: Subject;
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
 * path) are answered here, never reaching the request path, its faults, limits or journals. `feed`
 * is what the worlds tell each exchange they journal, streamed at `/__admin/requests/events`.
 */
export function withAdmin(worlds: Worlds, options: AdminOptions, feed: ExchangeFeed): Handle {
  const {
    admin: { token },
    maxBodyBytes,
    onError,
    ipv6Subnet,
  } = options;
  const { handle } = worlds;
  const ofSandboxes = sandboxRoutes(worlds.sandboxes);
  const callerAddress = createCallerAddress(options);
  // Wrong tokens are banned as refused API requests are (banThreshold, the option's clock), in a
  // store of their own: a reset, which any caller with the token may send, must not lift a
  // guesser's ban, and a guesser's ban must not take the API's budget. Bans start at a second and
  // double, so whoever shares a guesser's subject waits seconds, while guessing stays as slow.
  const strikes = createStrikes({ ...options, firstBanMs: FIRST_BAN_MS, limitStore: memoryLimitStore(), what: 'wrong admin tokens' });
  // Any peer's word is believed under a hop count: someone reaching the port directly can write any address.
  const forgeable = typeof options.trustProxy === 'number' && options.trustProxy > 0 && options.clientAddress === undefined;
  // Callers that showed the token behind such a header: a guesser's ban of the peer does not hold them.
  const known = new Set<Subject>();

  /**
   * Whom a request's guesses count against. A caller on loopback that no proxy speaks for is
   * exempt: only this machine can be it, and banning it would lock out every local client (the
   * operator's tests among them) for one stale token. Behind a forgeable header, the ban is on the
   * pair of forwarded address and peer, so a forger bans only itself, and the peer's own count
   * keeps a forger rotating addresses to the threshold's guesses.
   */
  function guesserOf(request: Request, host: Host): Guesser | undefined {
    const peer = host.clientAddress;
    const caller = callerAddress(request, host);
    if (caller === peer && isLoopback(peer)) return undefined;
    const subject = anonymousSubject(caller, ipv6Subnet);
    if (!forgeable || caller === peer) return { subject };
    const peerSubject = anonymousSubject(peer, ipv6Subnet);
    return { subject: `${subject} via ${peerSubject}`, peer: peerSubject };
  }

  /** The ban `guesser` is under, if any: its own, or its peer's unless it showed the token before. */
  async function banOf({ subject, peer }: Guesser) {
    return (await strikes.banned(subject)) ?? (peer !== undefined && !known.has(subject) ? await strikes.banned(peer) : undefined);
  }

  /** Counts a wrong token against `guesser`: the ban it earns, if it earns one. */
  async function strike({ subject, peer }: Guesser) {
    const own = await strikes.strike(subject);
    const ofPeer = peer === undefined ? undefined : await strikes.strike(peer);
    return own ?? ofPeer;
  }

  /** Remembers a caller behind a forgeable header that showed the token, the oldest forgotten first. */
  function remember({ subject, peer }: Guesser) {
    if (peer === undefined || known.has(subject)) return;
    if (known.size >= KNOWN_CALLERS) known.delete(known.values().next().value!);
    known.add(subject);
  }

  async function answer(request: Request, host: Host, { path: fullPath, mountPath }: AdminTarget): Promise<Reply | Response> {
    const guesser = guesserOf(request, host);
    // A banned caller is refused whatever it sends: otherwise the ban would only tell a guesser which token is right.
    const banned = guesser && (await banOf(guesser));
    if (banned) throw banned;
    // The dashboard's page needs no token: it asks for it, and holds nothing of the fake backend's.
    const page = pageAnswer(fullPath, request, host);
    if (page) return page;
    const authorization = request.headers.get('authorization');
    const given = bearerToken(authorization);
    if (given === undefined || !sameSecret(given, token)) {
      // No Authorization header guesses nothing (a browser's preflight, a first try): only a wrong one counts.
      const ban = authorization === null || !guesser ? undefined : await strike(guesser);
      if (ban) throw ban;
      throw new ApiError({
        status: 401,
        code: 'unauthorized',
        message:
          authorization === null
            ? 'The admin API needs Authorization: Bearer <admin token>.'
            : 'The admin token is wrong: send Authorization: Bearer <admin token>, the token the server was started with.',
        headers: { 'WWW-Authenticate': 'Bearer realm="petstore-admin"' },
      });
    }
    if (guesser) remember(guesser);
    // Every world's exchanges: the server's stream, not a world's route.
    if (fullPath === FEED_PATH) return feed.answer(request, host);
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

  /** A Reply is a plain object of ours; what the dashboard answers (its page, its stream) is a Response already. */
  const isResponse = (answered: Reply | Response): answered is Response => 'bodyUsed' in answered;
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
    return isResponse(reply) ? reply : respond(reply, request, host);
  };
}
