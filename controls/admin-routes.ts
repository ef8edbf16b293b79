/** The admin API's routes: what each `/__admin` operation reads, checks and does to the controls. */
import { ApiError } from '../src/response/api-error.ts';
import type { Reply } from '../src/response/reply.ts';
import { InvalidSeedError } from '../src/storage/bulk.ts';
import { adminOpenApiDocument } from './admin-openapi.ts';
import type { Controls } from './controls.ts';
import { checkFaultRule } from './faults.ts';

/** What an admin operation gets: the request and its already-read JSON body, if it has one. */
interface AdminInput {
  readonly request: Request;
  readonly body: () => Promise<unknown>;
}

export type AdminOperation = (input: AdminInput) => Promise<Reply> | Reply;

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
export function adminRoutes(controls: Controls) {
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

