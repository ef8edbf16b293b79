/**
 * Property-based run over both OpenAPI documents: generated requests to every operation of
 * `/v1/openapi.json` and `/__admin/openapi.json` (valid and invalid, wrong keys, bad Host, other
 * methods, faults of any status 400–599, a standing 503 like `--fail-rate`, a key's bursts into
 * 429 and a ban) against a real http.Server, and every answer judged by the served document alone.
 * The seed is fixed (test/helpers/fuzz-seed.ts); `FUZZ_SEED=<integer>` tries another.
 */
import { Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { listen, type ListeningPetStore } from '../../testing/index.ts';
import { FUZZ_SEED as SEED, sayTheSeedOnFailure } from '../helpers/fuzz-seed.ts';
import { operationRequests, requestsFor, type PlannedRequest } from './document-requests.ts';
import { mismatchLog, type Sent } from './mismatches.ts';
import { send } from './send.ts';

const RUNS = 150;
const KEY = 'documents-key-0123456789';
/** Two requests a minute: a burst reaches 429, and more than ten refusals a ban. */
const TINY = 'documents-tiny-0123456789';
const ADMIN = 'documents-admin-0123456789';
const START = '2026-06-01T12:00:00.000Z';
/**
 * The store's own clock (the main world's is set to START by each run): a minute on per run, so the
 * wrong admin tokens of one run (six steps at most) never add up to a ban of this address over many.
 */
let storeNow = Date.parse(START);

let server: ListeningPetStore;
/** What the store's onError hook was handed: a request the server failed to answer. */
const failures: string[] = [];
let origin: string;
let host: string;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
// biome-ignore lint/suspicious/noExplicitAny: the served documents, as JSON
const documents: { main: any; admin: any } = { main: undefined, admin: undefined };

beforeAll(async () => {
  const petstore = createPetStore({
    admin: { token: ADMIN },
    apiKeys: { [KEY]: { perMinute: 1_000_000, perDay: 1_000_000 }, [TINY]: { perMinute: 2, perDay: 1_000 } },
    now: () => storeNow,
    onError: (error) => failures.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
  });
  server = await listen(petstore);
  origin = new URL(server.url).origin;
  host = new URL(server.url).host;
  documents.main = await (await fetch(`${origin}/v1/openapi.json`)).json();
  documents.admin = await (await fetch(`${origin}/__admin/openapi.json`, { headers: { authorization: `Bearer ${ADMIN}` } })).json();
});
afterAll(async () => {
  agent.destroy();
  await server?.close();
});

type Step =
  | { readonly kind: 'request'; readonly request: PlannedRequest }
  | { readonly kind: 'fault'; readonly rule: Record<string, unknown>; readonly next: PlannedRequest }
  | { readonly kind: 'burst'; readonly count: number }
  | { readonly kind: 'follow' };

const admin = (method: string, target: string, body?: unknown): PlannedRequest => ({
  method,
  target,
  headers: [['host', host], ['authorization', `Bearer ${ADMIN}`], ...(body === undefined ? [] : [['content-type', 'application/json'] as const])],
  ...(body !== undefined && { body: JSON.stringify(body) }),
  operation: `${method} ${target}`,
});
const withKey = (key: string, target: string, operation: string): PlannedRequest => ({
  method: 'GET',
  target,
  headers: [
    ['host', host],
    ['authorization', `Bearer ${key}`],
  ],
  operation,
});

/** A fault of any status the admin API takes, now and then a standing 503 as `--fail-rate 1` would answer. */
const faultRule = fc.oneof(
  fc.record(
    {
      // Any status, and often one the operations declare, whose declared headers the answer must then carry.
      status: fc.oneof(fc.integer({ min: 400, max: 599 }), fc.constantFrom(400, 401, 404, 410, 413, 415, 422, 429, 500, 503)),
      times: fc.constantFrom(1, 2, 'always'),
      retryAfterSeconds: fc.integer({ min: 1, max: 3_600 }),
      path: fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/openapi.json'),
      method: fc.constantFrom('GET', 'POST', 'HEAD'),
      afterHandling: fc.boolean(),
    },
    { requiredKeys: ['status'] },
  ),
  fc.constant({ status: 503, times: 'always', probability: 1 }),
);

const credentials = { main: { own: KEY, other: ADMIN, tiny: TINY }, admin: { own: ADMIN, other: KEY, tiny: TINY } } as const;

function steps(): fc.Arbitrary<Step[]> {
  const main = requestsFor(documents.main, credentials.main, host);
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 6, arbitrary: main.map((request) => ({ kind: 'request' as const, request })) },
    { weight: 4, arbitrary: requestsFor(documents.admin, credentials.admin, host).map((request) => ({ kind: 'request' as const, request })) },
    { weight: 3, arbitrary: fc.record({ rule: faultRule, next: main }).map(({ rule, next }) => ({ kind: 'fault' as const, rule, next })) },
    { weight: 1, arbitrary: fc.integer({ min: 3, max: 14 }).map((count) => ({ kind: 'burst' as const, count })) },
    { weight: 2, arbitrary: fc.constant({ kind: 'follow' as const }) },
  );
  return fc.array(step, { minLength: 1, maxLength: 6 });
}

/** A sandbox's admin path: where a generated id is swapped for the run's sandbox. */
const IN_A_SANDBOX = /^\/__admin\/sandboxes\/([^/?]+)/;

/**
 * `request` at the run's open sandbox when it names one by a valid request's id (`1` to `3`, as
 * for a pet) or a generated id starting with a letter, so its routes answer as they do for a real
 * sandbox; a generated id starting with a digit stays, an id no sandbox has (the 404).
 */
function atSandbox(request: PlannedRequest, id: string | undefined): PlannedRequest {
  const generated = IN_A_SANDBOX.exec(request.target)?.[1];
  if (!id || !generated || !/^([1-3]|[a-z].*)$/.test(generated)) return request;
  return { ...request, target: request.target.replace(IN_A_SANDBOX, `/__admin/sandboxes/${id}`) };
}

/** A fault each world holds from the start of a run, on a path no request has: what a DELETE of one fault removes. */
const PARKED_FAULT = { path: '/parked/never-requested', status: 503, times: 1 };

/** A fault's admin path: where a generated fault id is swapped for its world's parked fault. */
const A_FAULT = /^(\/__admin(?:\/sandboxes\/[^/?]+)?\/faults)\/([^/?]+)/;

/**
 * `request` at its world's parked fault when it names one by a valid request's id (`1` to `3`) or a
 * generated id starting with a letter, so the DELETE answers as it does for a real fault; any other
 * id stays, one no rule has (the 404).
 */
function atParkedFault(request: PlannedRequest, ids: { readonly main?: string; readonly sandbox?: string }): PlannedRequest {
  const [, world, generated] = A_FAULT.exec(request.target) ?? [];
  const id = world?.includes('/sandboxes/') ? ids.sandbox : ids.main;
  if (!world || !id || !generated || !/^([1-3]|[a-z].*)$/.test(generated)) return request;
  return { ...request, target: request.target.replace(A_FAULT, `${world}/${id}`) };
}

/** Runs `steps` from a clean store (reset, clock at START, three pets, a sandbox, a parked fault in each world), returning every exchange. */
async function run(plan: Step[]): Promise<Sent[]> {
  const sent: Sent[] = [];
  let sandbox: string | undefined;
  const parked: { main?: string; sandbox?: string } = {};
  storeNow += 60_000;
  const exchange = async (planned: PlannedRequest) => {
    const request = atParkedFault(atSandbox(planned, sandbox), parked);
    const failed = failures.length;
    const answer = await send(origin, request, agent);
    sent.push({ request, answer, ...(failures.length > failed && { failure: failures.slice(failed).join('; ') }) });
    return answer;
  };
  await exchange(admin('POST', '/__admin/reset'));
  await exchange(admin('POST', '/__admin/clock', { set: START }));
  await exchange(
    admin(
      'POST',
      '/__admin/seed',
      [1, 2, 3].map((n) => ({ name: `Pet ${n}`, categoryId: n })),
    ),
  );
  const opened = await exchange(admin('POST', '/__admin/sandboxes', {}));
  sandbox = typeof opened === 'object' && opened.status === 201 ? (JSON.parse(opened.body) as { id: string }).id : undefined;
  const idOf = (answer: Awaited<ReturnType<typeof exchange>>) =>
    typeof answer === 'object' && answer.status === 201 ? (JSON.parse(answer.body) as { id: string }).id : undefined;
  parked.main = idOf(await exchange(admin('POST', '/__admin/faults', PARKED_FAULT)));
  parked.sandbox = idOf(await exchange(admin('POST', `/__admin/sandboxes/${sandbox}/faults`, PARKED_FAULT)));
  let next: string | undefined = '/v1/pets?limit=1';
  for (const step of plan) {
    if (step.kind === 'request') await exchange(step.request);
    if (step.kind === 'fault') {
      await exchange(admin('POST', '/__admin/faults', step.rule));
      await exchange(step.next);
    }
    if (step.kind === 'burst') for (let i = 0; i < step.count; i++) await exchange(withKey(TINY, '/v1/pets', 'GET /pets'));
    if (step.kind === 'follow' && next) await exchange(withKey(KEY, next, 'GET /pets'));
    const last = sent.at(-1)?.answer;
    const link = typeof last === 'object' ? last.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1] : undefined;
    if (link) next = link;
  }
  // Not judged: it only keeps the sandboxes of 150 runs under the cap.
  if (sandbox) await fetch(`${origin}/__admin/sandboxes/${sandbox}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } });
  return sent;
}

/** Requests each run starts with: reset, the clock at START, three pets, a sandbox, a parked fault in each world. */
const SETUP = 6;

describe('both OpenAPI documents against what the server answers', () => {
  it('declares every status, header, media type and body the server sends to generated requests, faults and misuse included', { timeout: 60_000 }, async () => {
    sayTheSeedOnFailure();
    const log = mismatchLog(documents);
    await fc.assert(
      fc.asyncProperty(steps(), async (plan) => log.judge(await run(plan), SETUP)),
      { seed: SEED, numRuns: RUNS },
    );

    // A run that never saw an operation succeed would pass without checking its success: such an
    // operation gets valid requests of its own (from the same seed) until one succeeds, up to 20.
    const missed: string[] = [];
    for (const document of ['main', 'admin'] as const) {
      for (const { operation, valid } of operationRequests(documents[document], credentials[document], host)) {
        for (const request of log.succeeded(document, operation) ? [] : fc.sample(valid, { seed: SEED, numRuns: 20 })) {
          log.judge(await run([{ kind: 'request', request }]), SETUP);
          if (log.succeeded(document, operation)) break;
        }
        if (!log.succeeded(document, operation)) missed.push(`- no valid request to ${document} ${operation} succeeded (20 tried)`);
      }
    }
    const report = [...missed, ...log.report()];
    expect(report, `${report.length} distinct mismatches in ${log.exchanges} exchanges (seed ${SEED}, ${RUNS} runs)`).toEqual([]);
  });
});
