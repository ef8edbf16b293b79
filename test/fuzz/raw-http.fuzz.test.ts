/** Raw-socket fuzzing of the real Node server: 10,000 generated HTTP/1.x exchanges, every answer JSON, none missing unless listed below. */
/*
 * A case may end with no answer to a request only when:
 *  - the client sent nothing, or only empty lines, then closed: there is no request to answer
 *    (RFC 9112 §2.2 lets a server ignore empty lines before a request line);
 *  - the client cut its own last request short (body shorter than its Content-Length, a chunked
 *    body without its last chunk) and closed its side: it gave up on that request; an answer it
 *    does get must still be JSON;
 *  - the bytes are a TLS ClientHello: that client cannot read an HTTP answer;
 *  - an earlier response on the connection carried `Connection: close`: the server reads no further
 *    (RFC 9112 §9.6).
 * The seed is fixed (test/helpers/fuzz-seed.ts): FUZZ_SEED=<integer> tries others; FUZZ_RUNS=<n>
 * runs fewer cases while iterating.
 */
import { connect, createServer, type AddressInfo } from 'node:net';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/response/api-error.ts';
import { PetSchema } from '../../src/storage/pet.ts';
import { FUZZ_SEED as seed, sayTheSeedOnFailure } from '../helpers/fuzz-seed.ts';
import { KEY, startServer } from '../helpers/server.ts';
import { rawCase, type RawCase } from './raw-arbitraries.ts';
import { closesConnection, header, readResponses, type RawResponse } from './raw-responses.ts';

const runs = Number(process.env.FUZZ_RUNS) || 10_000;
const CONCURRENCY = 50;
/**
 * Past the server's 2 s deadlines plus its 1 s check interval, with room for a machine at five times
 * the load: silence this long is a failure. Only a silent server ever waits this long.
 */
const CAP_MS = 15_000;
const STACK_TEXT = /\n\s+at \S|\bat [^\s()]+ \(|node:internal|TypeError|ReferenceError|RangeError/;
const HTML = /<html|<!doctype|<body|<pre>/i;

type End = 'done' | 'closed' | 'reset' | 'capped';
interface Outcome {
  readonly data: Buffer;
  readonly end: End;
}

/** Sends one case on a fresh connection and collects what comes back until it is answered, closed or capped. */
function exchange(port: number, rawCase: RawCase): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let reset = false;
    const finish = (end: End) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ data, end });
    };
    const timer = setTimeout(() => finish('capped'), CAP_MS);
    socket.on('error', (error: NodeJS.ErrnoException) => (reset ||= error.code === 'ECONNRESET'));
    socket.on('close', () => finish(reset ? 'reset' : 'closed'));
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      // Stop as soon as every request has its answer, unless the server announced a close (then wait for it).
      const read = readResponses(data, rawCase.methods, false);
      const closing = read.responses.some(closesConnection);
      if (!closing && read.finals >= rawCase.expected && read.rest.length === 0) finish('done');
    });
    socket.write(Buffer.from(rawCase.bytes, 'latin1'));
    if (rawCase.halfClose) socket.end();
  });
}

/** What is wrong with one final response to a request sent with `method`: group names, none if fine. */
function responseProblems(response: RawResponse, method: string): string[] {
  const { status } = response;
  if (status === 204) return method === 'OPTIONS' ? [] : [`204 to a ${method} request`];
  if (status !== 200 && status !== 201 && (status < 400 || status > 599)) return [`status ${status}`];
  const type = header(response, 'content-type');
  const text = response.body.toString('utf8');
  if (type === undefined || !/^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(type)) {
    return [`${status} ${type === undefined ? 'without Content-Type' : type}`];
  }
  if (method === 'HEAD') return [];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`${status} application/json whose body is not JSON`];
  }
  if (status === 200) return typeof body === 'object' && body !== null ? [] : ['200 body neither an array nor an object'];
  if (status === 201) return v.is(PetSchema, body) ? [] : ['201 body is not a pet'];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [`${status} JSON that is not an Error object`];
  const error = body as Record<string, unknown>;
  const problems: string[] = [];
  if (!(ERROR_CODES as readonly unknown[]).includes(error.code)) problems.push(`${status} Error body with an undocumented code`);
  if (typeof error.message !== 'string') problems.push(`${status} Error body without a message`);
  if (error.status !== status) problems.push(`${status} Error body whose status is ${String(error.status)}`);
  if (Object.keys(error).some((k) => !['code', 'message', 'status', 'details'].includes(k))) problems.push(`${status} Error body with extra keys`);
  if (error.details !== undefined && !Array.isArray(error.details)) problems.push(`${status} Error body whose details is not a list`);
  return problems;
}

/** Every failure group a case falls into. */
function caseProblems(rawCase: RawCase, outcome: Outcome): string[] {
  const problems: string[] = [];
  const text = outcome.data.toString('latin1');
  if (STACK_TEXT.test(text)) problems.push('stack or internal error text in a response');
  if (HTML.test(text)) problems.push('HTML in a response');
  const read = readResponses(outcome.data, rawCase.methods, outcome.end !== 'done');
  if (read.error) problems.push(`unreadable response (${read.error.replace(/".*/, '…')})`);
  else if (read.rest.length > 0) problems.push('part of a response, then silence');
  let finals = 0;
  let required = rawCase.expected - (rawCase.exception ? 1 : 0);
  for (const response of read.responses) {
    if (response.status < 200) {
      if (response.status !== 100) problems.push(`interim ${response.status}`);
      continue;
    }
    problems.push(...responseProblems(response, rawCase.methods[finals] ?? '?'));
    finals++;
    if (closesConnection(response)) required = Math.min(required, finals);
  }
  if (finals < required) {
    const how = { done: 'answered', closed: 'closed', reset: 'reset', capped: `silent for ${CAP_MS / 1000} s` }[outcome.end];
    problems.push(`${finals ? 'a request' : 'connection'} ${how} without an answer (${rawCase.label})`);
  }
  return problems;
}

/** Escapes bytes for a report: JSON string escapes, long repeats folded, long tails cut. */
function show(bytes: string, max = 400): string {
  const folded = JSON.stringify(bytes).replace(/(.{1,12}?)\1{7,}/gs, (run, unit: string) => `${unit}⟨×${run.length / unit.length}⟩`);
  return folded.length > max ? `${folded.slice(0, max)}…⟨${bytes.length} bytes⟩` : folded;
}

interface Group {
  count: number;
  /** Index of the example in the case list: among equally short examples the first wins, whatever the timing. */
  index: number;
  example: RawCase;
  received: string;
}

/** Sends every case, CONCURRENCY connections at a time; failures grouped, each with its smallest example. */
async function fuzz(port: number, cases: readonly RawCase[]) {
  const groups = new Map<string, Group>();
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      const rawCase = cases[index]!;
      const outcome = await exchange(port, rawCase);
      for (const { status } of readResponses(outcome.data, rawCase.methods, true).responses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const received = outcome.data.toString('latin1');
      for (const name of new Set(caseProblems(rawCase, outcome))) {
        const group = groups.get(name);
        if (!group) {
          groups.set(name, { count: 1, index, example: rawCase, received });
          continue;
        }
        group.count++;
        if ((rawCase.bytes.length - group.example.bytes.length || index - group.index) < 0) Object.assign(group, { index, example: rawCase, received });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { groups, statuses };
}

function report(groups: Map<string, Group>, statuses: Map<number, number>, total: number): string {
  const sorted = [...groups].sort(([x, a], [y, b]) => b.count - a.count || x.localeCompare(y));
  const seen = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
  const lines = [`${sorted.length} failure groups over ${total} cases (seed ${seed}; replay with FUZZ_SEED=${seed}); statuses seen: ${seen.join(' ')}`];
  for (const [name, { count }] of sorted) lines.push(`  ${String(count).padStart(5)} × ${name}`);
  for (const [name, { count, example, received }] of sorted.slice(0, 10)) {
    lines.push(
      '',
      `${name} (${count} cases); smallest example:`,
      `  sent:     ${show(example.bytes)}${example.halfClose ? ' then half-closed' : ''}`,
      `  received: ${show(received, 600)}`,
    );
  }
  return lines.join('\n');
}

/** A one-request case written by hand, for the checks on the checker. */
function handmade(path: string): RawCase {
  const method = path === '/head' ? 'HEAD' : 'GET';
  return { bytes: `${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, methods: [method], expected: 1, halfClose: false, label: 'handmade' };
}

describe('fuzzing the Node server over raw sockets', () => {
  it('answers every generated raw request (10,000, or FUZZ_RUNS) with JSON errors or documented successes, and leaves none unanswered', async () => {
    sayTheSeedOnFailure();
    let address = 0;
    const server = await startServer({
      maxBodyBytes: 1024,
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 2_000,
      keepAliveTimeoutMs: 2_000,
      cors: ['https://app.example'],
      // One address per request: all cases share 127.0.0.1, and quota refusals would hide the routes behind them.
      clientAddress: () => `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address++ & 255}`,
    });
    const cases = fc.sample(rawCase(KEY), { numRuns: runs, seed });
    const { groups, statuses } = await fuzz(Number(new URL(server.url).port), cases);
    expect(groups.size, report(groups, statuses, cases.length)).toBe(0);
    // The generators do get past the parser and auth: lists, documents and created pets.
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(runs / 20);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(runs / 200);
  }, 300_000);

  it('flags the failures it exists to find: text/plain 500s, stack text, HTML, bare 400s, bad Error bodies, HEAD bodies, hang-ups', async () => {
    const reply = (status: string, headers: string[], body: string) =>
      `HTTP/1.1 ${status}\r\n${[...headers, `Content-Length: ${Buffer.byteLength(body)}`].join('\r\n')}\r\n\r\n${body}`;
    const replies: Record<string, string | undefined> = {
      '/stack': reply('500 Internal Server Error', ['Content-Type: text/plain'], 'TypeError: x\n    at f (/app/a.js:1:1)'),
      '/bare': reply('400 Bad Request', ['Connection: close'], ''),
      '/html': reply('404 Not Found', ['Content-Type: text/html'], '<html><body>nope</body></html>'),
      '/code': reply('400 Bad Request', ['Content-Type: application/json'], '{"code":"nope","status":500,"extra":1}'),
      '/head': reply('200 OK', ['Content-Type: application/json'], '[]'),
      '/hangup': undefined,
    };
    const bad = createServer((socket) =>
      socket.once('data', (chunk) => {
        const answer = replies[chunk.toString('latin1').split(' ')[1] ?? ''];
        if (answer === undefined) socket.destroy();
        else socket.end(answer);
      }),
    );
    await new Promise<void>((resolve) => bad.listen(0, '127.0.0.1', resolve));
    const { groups } = await fuzz((bad.address() as AddressInfo).port, Object.keys(replies).map(handmade));
    bad.close();
    expect([...groups.keys()].sort()).toEqual([
      '400 Error body whose status is 500',
      '400 Error body with an undocumented code',
      '400 Error body with extra keys',
      '400 Error body without a message',
      '400 without Content-Type',
      '404 text/html',
      '500 text/plain',
      'HTML in a response',
      'connection closed without an answer (handmade)',
      'stack or internal error text in a response',
      'unreadable response (a body after a HEAD response)',
    ]);
  });
});
