/** Sends a planned request over real HTTP/1.1 exactly as planned (repeated lines, any Host), and reads the answer as a client sees it. */
import { request, type Agent } from 'node:http';
import type { PlannedRequest } from './document-requests.ts';
import type { SeenAnswer } from './strict-checker.ts';

/**
 * How long an answer may take before the exchange counts as a hang; nothing in these runs waits on
 * purpose, so this is a safety net sized for a busy machine (five times the load), not a speed claim.
 */
const ANSWER_WITHIN_MS = 15_000;

/**
 * Sends `planned` to the server at `origin` (`http://127.0.0.1:41234`) on a keep-alive `agent`.
 * Resolves to the answer, or to a string saying why there was none (a hang, a reset).
 *
 * @example
 * const answer = await send('http://127.0.0.1:8080', { method: 'GET', target: '/v1/pets', headers: [['host', '127.0.0.1:8080']], operation: 'GET /pets' }, agent);
 */
export function send(origin: string, planned: PlannedRequest, agent: Agent): Promise<SeenAnswer | string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const outgoing = request({ agent, hostname, port, method: planned.method, path: planned.target, setHost: false }, (incoming) => {
      const chunks: Buffer[] = [];
      const answered = () => {
        const headers = new Headers();
        for (let i = 0; i < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        resolve({ method: planned.method, target: planned.target, status: incoming.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      };
      // An event stream (the admin API's /__admin/requests/events) never ends: its first chunk is the answer, then the connection goes.
      const endless = incoming.headers['content-type'] === 'text/event-stream';
      incoming.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (endless) answered(), outgoing.destroy();
      });
      incoming.on('error', (error) => resolve(`the answer broke off: ${error.message}`));
      incoming.on('end', answered);
    });
    // Grouped by name, so a repeated header goes out as repeated lines rather than one joined value.
    const lines = new Map<string, string[]>();
    for (const [name, value] of planned.headers) lines.set(name, [...(lines.get(name) ?? []), value]);
    for (const [name, values] of lines) outgoing.setHeader(name, values.length === 1 ? values[0]! : values);
    outgoing.setTimeout(ANSWER_WITHIN_MS, () => {
      outgoing.destroy();
      resolve(`no answer within ${ANSWER_WITHIN_MS} ms`);
    });
    outgoing.on('error', (error) => resolve(`no answer: ${error.message}`));
    outgoing.end(planned.body);
  });
}

/** One line for a transcript: method, target, the headers that matter and the start of the body. */
export function describeRequest({ method, target, headers, body }: PlannedRequest): string {
  const shown = headers.map(([name, value]) => `${name}: ${value.length > 40 ? `${value.slice(0, 40)}…` : value}`).join(' | ');
  return `${method} ${target} [${shown}]${body === undefined ? '' : ` ${body.length > 100 ? `${body.slice(0, 100)}… (${body.length} chars)` : body}`}`;
}
