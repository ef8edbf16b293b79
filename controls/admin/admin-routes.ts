/** The admin API's routes: what each `/__admin` operation reads, checks and does to the controls. */
import { ApiError, parseInput, pathAndQuery, type Reply } from '../../src/index.ts';
import { adminOpenApiJson } from './admin-openapi.ts';
import { FaultRuleSchema } from '../faults/fault-schemas.ts';
import { seedSchemaFor } from '../pets/seed-schemas.ts';
import { ClockChangeSchema, timeAfterAdvance, timeOf } from '../clock/clock-schemas.ts';
import type { Controls } from '../controls.ts';
import type { PendingFault } from '../faults/faults.ts';
import { verificationFailure } from '../journal/journal.ts';
import { countMatching, exchangesJson, exchangesMatching, journalFilter } from '../journal/journal-query.ts';
import { harJson } from '../journal/journal-har.ts';
import { VerificationSchema } from '../journal/journal-schemas.ts';

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

/** The 404 of a fault id no rule that can still apply has. */
const noSuchFault = (id: string) =>
  new ApiError({
    status: 404,
    code: 'not_found',
    message: `There is no pending fault ${JSON.stringify(id)}: it was used up, removed or never injected; GET /__admin/faults lists them.`,
  });

/** The filter a journal query's string asks for, or its 400. */
const filterIn = (request: Request) => journalFilter(new URLSearchParams(pathAndQuery(request.url).query));

/** A HAR is saved as a file: a browser that opens the URL offers to download it, under this name. */
const HAR_HEADERS = { 'Content-Disposition': 'attachment; filename="petstore-requests.har"' };

/** The journal's routes over `controls`: its exchanges (as JSON or HAR) and how many, filtered; a verification; clearing it. */
function journalRoutes(controls: Controls): { path: string; methods: Partial<Record<string, AdminOperation>> }[] {
  return [
    {
      path: '/requests',
      methods: {
        GET: ({ request }) => {
          // Filtered now (a bad filter is a 400 before anything is sent), sent as a stream: a full journal is no one string.
          const found = exchangesMatching(controls.requests, filterIn(request));
          return { status: 200, stream: () => exchangesJson(found) };
        },
        DELETE: () => (controls.clearRequests(), noContent),
      },
    },
    {
      path: '/requests.har',
      methods: {
        GET: ({ request }) => {
          const found = exchangesMatching(controls.requests, filterIn(request));
          return { status: 200, headers: HAR_HEADERS, stream: () => harJson(found) };
        },
      },
    },
    { path: '/requests/count', methods: { GET: ({ request }) => json(200, { count: countMatching(controls.requests, filterIn(request)) }) } },
    {
      path: '/verify',
      methods: {
        async POST({ body }) {
          const verification = parseInput(VerificationSchema, await body(), 'body');
          const failure = verificationFailure(controls.requests, verification);
          // Not an ApiError: its code is the admin API's own, outside the public API's list.
          if (failure !== undefined) return json(409, { code: 'verification_failed', message: failure, status: 409 });
          return json(200, { count: verification.times });
        },
      },
    },
  ];
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
          const input = await body();
          return json(201, await controls.seed(parseInput(seedSchemaFor(input), input, 'body')));
        },
      },
    },
    { path: '/pets', methods: { GET: async () => json(200, await controls.pets()) } },
    {
      path: '/clock',
      methods: {
        GET: () => json(200, now()),
        async POST({ body }) {
          const change = parseInput(ClockChangeSchema, await body(), 'body');
          if (change.advanceMs !== undefined) controls.clock.set(timeAfterAdvance(controls.clock.now(), change.advanceMs));
          else controls.clock.set(timeOf(change.set!));
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
      path: '/faults/{faultId}',
      methods: {
        DELETE: ({ params }) => {
          if (!controls.faults.remove(params.faultId!)) throw noSuchFault(params.faultId!);
          return noContent;
        },
      },
    },
    ...journalRoutes(controls),
    { path: '/openapi.json', methods: { GET: ({ mountPath }) => ({ status: 200, json: adminOpenApiJson(mountPath ?? '') }) } },
  ];
  return routes;
}
