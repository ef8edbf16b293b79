/**
 * Property-based run over both OpenAPI documents: generated requests to every operation of
 * `/v1/openapi.json` and `/__admin/openapi.json` (valid and invalid, wrong keys, bad Host, other
 * methods, faults of any status 400–599, a standing 503 like `--fail-rate`, a key's bursts into
 * 429 and a ban) against a real http.Server, and every answer judged by the served document alone.
 * `FUZZ_SEED=<seed>` replays another seed.
 */
import { Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { listen, type ListeningPetStore } from '../../testing/index.ts';
import { operationsOf, requestsFor, type PlannedRequest } from './document-requests.ts';
import { describeRequest, send } from './send.ts';
import { createStrictChecker, type SeenAnswer } from './strict-checker.ts';

const SEED = Number(process.env.FUZZ_SEED) || 27;
const RUNS = 150;
const KEY = 'documents-key-0123456789';
/** Two requests a minute: a burst reaches 429, and more than ten refusals a ban. */
const TINY = 'documents-tiny-0123456789';
const ADMIN = 'documents-admin-0123456789';
const START = '2026-06-01T12:00:00.000Z';

let server: ListeningPetStore;
let origin: string;
let host: string;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
// biome-ignore lint/suspicious/noExplicitAny: the served documents, as JSON
const documents: { main: any; admin: any } = { main: undefined, admin: undefined };

beforeAll(async () => {
  const petstore = createPetStore({
    admin: { token: ADMIN },
    apiKeys: { [KEY]: { perMinute: 1_000_000, perDay: 1_000_000 }, [TINY]: { perMinute: 2, perDay: 1_000 } },
    now: () => Date.parse(START),
    onError: () => {},
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
      status: fc.integer({ min: 400, max: 599 }),
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

function steps(): fc.Arbitrary<Step[]> {
  const credentials = { main: { own: KEY, other: ADMIN, tiny: TINY }, admin: { own: ADMIN, other: KEY, tiny: TINY } };
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

/** What one run sent, in order, so a mismatch can be shown with the requests that led to it. */
interface Sent {
  readonly request: PlannedRequest;
  readonly answer: SeenAnswer | string;
}

/** Runs `steps` from a clean store (reset, clock at START, three pets), returning every exchange. */
async function run(plan: Step[]): Promise<Sent[]> {
  const sent: Sent[] = [];
  const exchange = async (request: PlannedRequest) => {
    const answer = await send(origin, request, agent);
    sent.push({ request, answer });
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
  return sent;
}

/** Which document describes `target`: the admin API's under /__admin, the API's under its base path, neither elsewhere. */
const documentOf = (target: string) => (/^\/__admin([/?]|$)/.test(target) ? 'admin' : /^\/v1([/?]|$)/.test(target) ? 'main' : undefined);

/** Outside both documents everything is a JSON Error (decisions.md, "Outside the base path"): a 404, or what a fault injected. */
function outside({ method, target, status, headers, body }: SeenAnswer): string[] {
  const where = `${method} ${target} → ${status} (outside both documents)`;
  if (status < 400) return [`${where}: not an error`];
  if (headers.get('content-type') !== 'application/json') return [`${where}: content-type ${headers.get('content-type')}`];
  if (method === 'HEAD') return body === '' ? [] : [`${where}: a body in answer to HEAD`];
  try {
    const error = JSON.parse(body);
    return error.status === status && typeof error.code === 'string' && typeof error.message === 'string'
      ? []
      : [`${where}: not an Error body: ${body.slice(0, 100)}`];
  } catch {
    return [`${where}: body is not JSON: ${body.slice(0, 100)}`];
  }
}

/** A mismatch with its statuses and digits folded, so one gap in a document is listed once (with every method and status that showed it). */
const signature = (request: PlannedRequest, answer: SeenAnswer, problem: string) =>
  `${request.operation} → ${answer.status >= 400 && answer.status < 600 ? `${String(answer.status)[0]}xx` : answer.status}: ${problem
    .slice(problem.indexOf(': ') + 2)
    .replace(/: [[{].*$/, '')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|PROPFIND)\b/g, 'METHOD')
    .replace(/\d+/g, '#')}`;

describe('both OpenAPI documents against what the server answers (seed ' + SEED + ')', () => {
  it('declares every status, header, media type and body the server sends to generated requests, faults and misuse included', { timeout: 60_000 }, async () => {
    const checkers = { main: createStrictChecker(documents.main), admin: createStrictChecker(documents.admin) };
    const mismatches = new Map<string, { count: number; methods: Set<string>; statuses: Set<number>; example: string; before: string[] }>();
    const answered = new Set<string>();
    let exchanges = 0;
    await fc.assert(
      fc.asyncProperty(steps(), async (plan) => {
        const sent = await run(plan);
        exchanges += sent.length;
        sent.forEach(({ request, answer }, index) => {
          const document = documentOf(request.target);
          const problems =
            typeof answer === 'string' ? [`${request.method} ${request.target}: ${answer}`] : document ? checkers[document](answer) : outside(answer);
          if (typeof answer === 'object' && answer.status < 300) answered.add(`${document} ${request.operation}`);
          for (const problem of problems) {
            const key = typeof answer === 'string' ? problem : signature(request, answer, problem);
            const seen = mismatches.get(key) ?? { count: 0, methods: new Set(), statuses: new Set(), example: problem, before: [] };
            if (seen.count++ === 0) {
              seen.before.push(...sent.slice(Math.max(3, index - 4), index + 1).map((s) => `    ${describeRequest(s.request)}`));
              mismatches.set(key, seen);
            }
            seen.methods.add(request.method);
            if (typeof answer === 'object') seen.statuses.add(answer.status);
          }
        });
      }),
      { seed: SEED, numRuns: RUNS },
    );

    // A generator that reached no success of an operation would pass without testing it.
    const operations = [
      ...operationsOf(documents.main).map(([t, v]) => `main ${v.toUpperCase()} ${t}`),
      ...operationsOf(documents.admin).map(([t, v]) => `admin ${v.toUpperCase()} ${t}`),
    ];
    const report = [
      ...operations.filter((operation) => !answered.has(operation)).map((operation) => `- never answered with a success: ${operation}`),
      ...[...mismatches].map(
        ([key, { count, methods, statuses, example, before }]) =>
          `- ${key}\n  ${count}× (${[...methods].join(', ')}; ${[...statuses].sort().join(', ')}), first: ${example}\n  after:\n${before.join('\n')}`,
      ),
    ];
    expect(report, `${report.length} distinct mismatches in ${exchanges} exchanges (seed ${SEED}, ${RUNS} runs)`).toEqual([]);
  });
});
