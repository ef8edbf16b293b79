/** The admin API: a fake backend's controls over HTTP under `/__admin`, outside the base path, behind a Bearer token. */
import { bearerToken } from '../src/auth/auth.ts';
import type { PetStoreContext } from '../src/edge/context.ts';
import { bodyReadByHost, responseClassFor } from '../src/edge/host.ts';
import { requestTarget } from '../src/edge/target.ts';
import type { Handle } from '../src/handle.ts';
import { readJson } from '../src/operations/body.ts';
import type { ResolvedOptions } from '../src/options.ts';
import { ApiError } from '../src/response/api-error.ts';
import { errorReply, render, type Reply } from '../src/response/reply.ts';
import { allowedMethods, handlerFor, matchRoute } from '../src/route/route.ts';
import { InvalidSeedError } from '../src/storage/bulk.ts';
import { adminOpenApiDocument } from './admin-openapi.ts';
import { takeoverClock } from './clock.ts';
import { createControls, type Controls } from './controls.ts';
import { checkFaultRule, type FaultRule } from './faults.ts';

/** Where the admin API is mounted, under the host's mount path. */
export const ADMIN_PATH = '/__admin';

/** What an admin operation gets: the request and its already-read JSON body, if it has one. */
interface AdminInput {
  readonly request: Request;
  readonly body: () => Promise<unknown>;
}

type AdminOperation = (input: AdminInput) => Promise<Reply> | Reply;

/** A constant-time comparison, so the token cannot be guessed a character at a time from response times. */
function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) difference |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return difference === 0;
}

const json = (status: number, body: unknown): Reply => ({ status, body });
const noContent: Reply = { status: 204 };

/** A 400 for a body an admin operation cannot use. */
function invalid(message: string, field = 'body'): ApiError {
  return new ApiError({ status: 400, code: 'invalid_request', message, details: [{ field, message }] });
}

/** The clock change `{"advanceMs": n}` or `{"set": "<ISO date>"}` asks for, applied. */
function moveClock(controls: Controls, body: unknown): void {
  const change = body as { advanceMs?: unknown; set?: unknown };
  const keys = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
  if (keys.length !== 1 || !['advanceMs', 'set'].includes(keys[0]!)) throw invalid('Send {"advanceMs": <ms>} or {"set": "<ISO date>"}.');
  if (keys[0] === 'advanceMs') {
    if (typeof change.advanceMs !== 'number' || !Number.isFinite(change.advanceMs) || change.advanceMs < 0) throw invalid('advanceMs must be a number of milliseconds, 0 or more.', 'advanceMs');
    controls.clock.advance(change.advanceMs);
  } else {
    if (typeof change.set !== 'string' || !Number.isFinite(Date.parse(change.set))) throw invalid('set must be an ISO date like "2026-01-01T00:00:00Z".', 'set');
    controls.clock.set(change.set);
  }
}

/** The admin routes over `controls`. */
function adminRoutes(controls: Controls) {
  const now = () => ({ now: new Date(controls.clock.now()).toISOString() });
  const routes: { path: string; methods: Partial<Record<string, AdminOperation>> }[] = [
    { path: '/reset', methods: { POST: () => (controls.reset(), noContent) } },
    {
      path: '/seed',
      methods: {
        async POST({ body }) {
          const pets = await body();
          if (!Array.isArray(pets)) throw invalid('Send a JSON array of pets, each like a POST /pets body.');
          try {
            return json(201, await controls.seed(pets));
          } catch (error) {
            if (!(error instanceof InvalidSeedError)) throw error;
            throw invalid(`Pet ${error.index} (0-based) is invalid: ${error.reason}. Nothing was stored.`, String(error.index));
          }
        },
      },
    },
    { path: '/pets', methods: { GET: async () => json(200, await controls.pets()) } },
    {
      path: '/clock',
      methods: {
        GET: () => json(200, now()),
        async POST({ body }) {
          moveClock(controls, await body());
          return json(200, now());
        },
      },
    },
    {
      path: '/faults',
      methods: {
        GET: () => json(200, controls.faults.list()),
        async POST({ body }) {
          let rule;
          try {
            rule = checkFaultRule(await body());
          } catch (error) {
            if (error instanceof TypeError) throw invalid(error.message);
            throw error;
          }
          return json(201, { id: controls.faults.inject(rule) });
        },
        DELETE: () => (controls.faults.clear(), noContent),
      },
    },
    {
      path: '/requests',
      methods: {
        GET: () => json(200, controls.requests),
        DELETE: () => ((controls.requests.length = 0), noContent),
      },
    },
    { path: '/openapi.json', methods: { GET: () => json(200, adminOpenApiDocument) } },
  ];
  return routes;
}

/** Resolved options with the admin API on. */
export type AdminOptions = ResolvedOptions & { readonly admin: { readonly token: string } };

/**
 * `controls.handle` with the admin API in front of it: requests under `/__admin` (below the mount
 * path) are answered here, never reaching the request path, its faults, limits or journal.
 */
export function withAdmin(controls: Controls, { admin: { token }, maxBodyBytes, onError }: AdminOptions): Handle {
  const { handle } = controls;
  const routes = adminRoutes(controls);

  async function answer(request: Request, context: PetStoreContext, path: string): Promise<Reply> {
    const given = bearerToken(request.headers.get('authorization'));
    if (given === undefined || !sameSecret(given, token)) {
      throw new ApiError({
        status: 401,
        code: 'unauthorized',
        message: 'The admin API needs Authorization: Bearer <admin token>.',
        headers: { 'WWW-Authenticate': 'Bearer realm="petstore-admin"' },
      });
    }
    const match = matchRoute(routes, path);
    if (!match) throw new ApiError({ status: 404, code: 'not_found', message: 'There is no such path in the admin API; see /__admin/openapi.json.' });
    if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: allowedMethods(match.route) } };
    const operation = handlerFor(match.route, request.method);
    return operation({ request, body: () => readJson(request, maxBodyBytes, bodyReadByHost(context)) });
  }

  return async (request, context) => {
    let path: string | undefined;
    try {
      const target = requestTarget(request, context);
      if (target !== '*' && (target.pathname === ADMIN_PATH || target.pathname.startsWith(`${ADMIN_PATH}/`))) path = target.pathname.slice(ADMIN_PATH.length);
    } catch {
      // A target the edge refuses: the request path answers it, with its 400.
    }
    if (path === undefined) return handle(request, context);
    const reply = await Promise.resolve()
      .then(() => answer(request, context, path))
      .catch((error: unknown) => errorReply(error, onError));
    return render(reply, { head: request.method === 'HEAD', ResponseClass: responseClassFor(context) });
  };
}

/** How {@link adminHandle} builds the request path. */
export interface AdminHandleSettings {
  /** pet-store.ts's createHandle, passed in so this module needs nothing above it. */
  readonly createHandle: (config: ResolvedOptions) => Handle;
  /** Faults that hold from the start and again after every reset (the command's demo flags). */
  readonly standingFaults?: readonly FaultRule[];
}

/**
 * The request path of a store with the admin API on: controls over memory stores, on a clock
 * that follows `config.now` until the admin API moves it, and the admin routes in front.
 */
export function adminHandle(config: AdminOptions, { createHandle, standingFaults }: AdminHandleSettings): Handle {
  const controls = createControls({ config, clock: takeoverClock(config.now), createHandle, standingFaults });
  return withAdmin(controls, config);
}
