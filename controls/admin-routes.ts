/** The admin API's routes: what each `/__admin` operation reads, checks and does to the controls. */
import { parseInput, type Reply } from '../src/index.ts';
import { adminOpenApiJson } from './admin-openapi.ts';
import { FaultRuleSchema, SeedSchema } from './admin-schemas.ts';
import { clockChangeFrom } from './clock-schemas.ts';
import type { Controls } from './controls.ts';
import type { PendingFault } from './faults.ts';

/** What an admin operation gets: the request and its already-read JSON body, if it has one. */
interface AdminInput {
  readonly request: Request;
  readonly body: () => Promise<unknown>;
  /** The path's parameters (`{id}` in `/sandboxes/{id}`). */
  readonly params: Readonly<Record<string, string>>;
  /** The prefix the host mounted the store under (`/api`), `''` or absent for none: the admin document's server. */
  readonly mountPath?: string;
}

export type AdminOperation = (input: AdminInput) => Promise<Reply> | Reply;

const json = (status: number, body: unknown): Reply => ({ status, body });
const noContent: Reply = { status: 204 };

/** A pending fault as JSON shows it: a RegExp path (given in JavaScript) as its source between slashes, not `{}`. */
function inJson(fault: PendingFault): PendingFault {
  return fault.path instanceof RegExp ? { ...fault, path: String(fault.path) } : fault;
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
          const pets = parseInput(SeedSchema, await body(), 'body');
          return json(201, await controls.seed(pets));
        },
      },
    },
    { path: '/pets', methods: { GET: async () => json(200, await controls.pets()) } },
    {
      path: '/clock',
      methods: {
        GET: () => json(200, now()),
        async POST({ body }) {
          const change = parseInput(clockChangeFrom(controls.clock.now()), await body(), 'body');
          if (change.advanceMs !== undefined) controls.clock.advance(change.advanceMs);
          else controls.clock.set(Date.parse(change.set!));
          return json(200, now());
        },
      },
    },
    {
      path: '/faults',
      methods: {
        GET: () => json(200, controls.faults.list().map(inJson)),
        async POST({ body }) {
          const rule = parseInput(FaultRuleSchema, await body(), 'body');
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
    { path: '/openapi.json', methods: { GET: ({ mountPath }) => ({ status: 200, json: adminOpenApiJson(mountPath ?? '') }) } },
  ];
  return routes;
}
