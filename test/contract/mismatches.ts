/** Judges exchanges against both documents and keeps each distinct mismatch once, with the requests that led to it. */
import type { PlannedRequest } from './document-requests.ts';
import { describeRequest } from './send.ts';
import { createStrictChecker, type SeenAnswer } from './strict-checker.ts';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document, as served
type Json = Record<string, any>;

/** One request of a run and what came back: an answer, or why there was none. */
export interface Sent {
  readonly request: PlannedRequest;
  readonly answer: SeenAnswer | string;
  /** What the store's `onError` hook was handed while answering: the server failed, whatever it answered. */
  readonly failure?: string;
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
    const isError = error.status === status && typeof error.code === 'string' && typeof error.message === 'string';
    return isError ? [] : [`${where}: not an Error body: ${body.slice(0, 100)}`];
  } catch {
    return [`${where}: body is not JSON: ${body.slice(0, 100)}`];
  }
}

/** A mismatch with its method, status and digits folded, so one gap in a document is listed once. */
const signature = (request: PlannedRequest, answer: SeenAnswer, problem: string) =>
  `${request.operation} → ${answer.status >= 400 && answer.status < 600 ? `${String(answer.status)[0]}xx` : answer.status}: ${problem
    .slice(problem.indexOf(': ') + 2)
    .replace(/: [[{].*$/, '')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|PROPFIND)\b/g, 'METHOD')
    .replace(/\d+/g, '#')}`;

/**
 * A log of what breaks the two documents. `judge` checks every answer of a run (requests under
 * /__admin by the admin document, under /v1 by the API's, others as JSON Errors) and notes which
 * operations succeeded; `report` lists each distinct mismatch once, with how often, for which
 * methods and statuses, its first instance and the requests just before it.
 *
 * @example
 * const log = mismatchLog({ main, admin });
 * log.judge(await run(plan));
 * expect(log.report()).toEqual([]);
 */
export function mismatchLog(documents: { readonly main: Json; readonly admin: Json }) {
  const checkers = { main: createStrictChecker(documents.main), admin: createStrictChecker(documents.admin) };
  const mismatches = new Map<string, { count: number; methods: Set<string>; statuses: Set<number>; example: string; before: string[] }>();
  /** `main GET /pets`, `admin POST /__admin/seed`: operations answered with a 2xx at least once. */
  const succeeded = new Set<string>();
  let exchanges = 0;

  function judge(sent: readonly Sent[], setup = 0): void {
    exchanges += sent.length;
    sent.forEach(({ request, answer, failure }, index) => {
      const document = documentOf(request.target);
      // A redirect is the success of an operation whose answer it is (the admin document's GET /__admin).
      if (typeof answer === 'object' && answer.status < 400) succeeded.add(`${document} ${request.operation}`);
      const problems =
        typeof answer === 'string' ? [`${request.method} ${request.target}: ${answer}`] : document ? checkers[document](answer) : outside(answer);
      // Misuse gets a clear answer: a declared 500 is still a failure when nothing injected it. Listed once per error.
      const failed =
        failure === undefined
          ? []
          : [`${request.method} ${request.target} → ${typeof answer === 'string' ? 'nothing' : answer.status}: the server failed: ${failure}`];
      for (const problem of [...problems, ...failed]) {
        const key = typeof answer === 'string' ? problem : failed.includes(problem) ? `the server failed: ${failure}` : signature(request, answer, problem);
        const seen = mismatches.get(key) ?? { count: 0, methods: new Set(), statuses: new Set(), example: problem, before: [] };
        if (seen.count++ === 0) {
          seen.before.push(...sent.slice(Math.max(setup, index - 4), index + 1).map((s) => `    ${describeRequest(s.request)}`));
          mismatches.set(key, seen);
        }
        seen.methods.add(request.method);
        if (typeof answer === 'object') seen.statuses.add(answer.status);
      }
    });
  }

  return {
    judge,
    /** Whether `operation` (`GET /pets`) of that document has been answered with a success. */
    succeeded: (document: 'main' | 'admin', operation: string) => succeeded.has(`${document} ${operation}`),
    get exchanges() {
      return exchanges;
    },
    report: (): string[] =>
      [...mismatches].map(
        ([key, { count, methods, statuses, example, before }]) =>
          `- ${key}\n  ${count}× (${[...methods].join(', ')}; ${[...statuses].sort().join(', ')}), first: ${example}\n  after:\n${before.join('\n')}`,
      ),
  };
}
