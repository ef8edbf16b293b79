/** Each `npm run example:<name>` recipe as a real process: the whole API under /api/v1 beside the host's own route (issue #15). */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPetStore, parseApiKeys } from 'petstore-service';
import { CONFORMANCE_KEYS, describeHttpConformance } from '../runtimes/http-conformance.ts';
import type { ServerProcess } from '../runtimes/processes.ts';
import { EXAMPLES, startExample, wire, type ExampleName, type WireResponse } from './examples.ts';

const KEY = CONFORMANCE_KEYS.split(':')[0]!;
const json = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** The body parser each recipe installs in front of the Pet Store, as the framework's users do. */
const PARSERS: Record<ExampleName, string> = {
  express: 'express.json()',
  fastify: "Fastify's body reading (bytes, unparsed, under /api)",
  koa: '@koa/bodyparser',
  hono: 'no body parser (Hono has none)',
  node: 'no body parser',
  deno: 'no body parser',
  bun: 'no body parser',
  workers: 'no body parser (a Worker gets the Request as sent)',
};

/**
 * Hosts whose body parser reads every body to its end, even past its limit, before the Pet Store
 * sees it: body-parser (express.json()) dumps the rest of a too-large body before calling next(err),
 * so a body that never ends is never answered. The conformance suite then asserts the 413 a
 * finite over-limit streamed body gets instead.
 */
const READS_WHOLE_BODY: ReadonlySet<ExampleName> = new Set(['express']);

/** Bodies a create must refuse: each must get exactly the 400 a Pet Store with nothing in front answers. */
const BAD_BODIES = {
  'that is not JSON': '{"name":',
  'with invalid fields': '{"name":"","categoryId":1.5}',
  'that is a JSON array': '[]',
  'with a __proto__ key': '{"__proto__":{}}',
};

/** The same Pet Store in-process, nothing in front: what every host must answer. */
const plain = createPetStore({ apiKeys: parseApiKeys(CONFORMANCE_KEYS), onError: () => {} });

/** Headers that legitimately differ between two responses: the clock, the quota spent, the connection. */
const VOLATILE = new Set([
  'date',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

function stableHeaders(response: WireResponse) {
  return Object.fromEntries(Object.entries(response.headers).filter(([name]) => !VOLATILE.has(name)));
}

/** The body as JSON when it is JSON, else as text, so a framework's HTML error page shows up in the diff. */
function bodyOf(response: WireResponse): unknown {
  try {
    return JSON.parse(response.body);
  } catch {
    return response.body;
  }
}

/**
 * `HEAD <path>` on a raw socket from `localAddress`, then `GET /health` on the same connection:
 * whatever comes between the HEAD's header block and the next status line is a body the server
 * should not have sent. Read until that second answer is whole (by its Content-Length or last
 * chunk) or the server closes: workerd (1.20250718) keeps the connection open after it despite
 * `Connection: close`.
 */
function rawHead(url: string, localAddress: string): Promise<{ status: number; afterHeaders: string }> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    let received = '';
    const finish = () => {
      socket.destroy();
      const end = received.indexOf('\r\n\r\n');
      const next = received.indexOf('HTTP/1.1 ', end + 4);
      const afterHeaders = end < 0 ? received : received.slice(end + 4, next < 0 ? undefined : next);
      resolve({ status: Number(received.split(' ')[1]), afterHeaders });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (healthAnswered(received)) finish();
    });
    socket.on('error', reject);
    socket.on('end', finish);
    const host = `Host: ${hostname}:${port}\r\n`;
    socket.write(`HEAD ${pathname}${search} HTTP/1.1\r\n${host}Authorization: Bearer ${KEY}\r\n\r\n`);
    socket.write(`GET /health HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
  });
}

/** Whether the second answer on the connection (GET /health's) has arrived whole. */
function healthAnswered(received: string): boolean {
  const second = received.indexOf('HTTP/1.1 ', received.indexOf('\r\n\r\n') + 4);
  if (second < 0) return false;
  const headEnd = received.indexOf('\r\n\r\n', second);
  if (headEnd < 0) return false;
  const head = received.slice(second, headEnd).toLowerCase();
  const body = received.slice(headEnd + 4);
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  return length ? body.length >= Number(length[1]) : /\r\ntransfer-encoding: *chunked/.test(head) && body.endsWith('0\r\n\r\n');
}

// Examples run side by side (each suite concurrent with the others); inside one, tests run in order.
describe.each(EXAMPLES)('npm run example:%s', { concurrent: true }, (name) => {
  let started: Promise<ServerProcess> | undefined;
  const example = () => (started ??= startExample(name));
  let api = '';
  let origin = '';
  beforeAll(async () => {
    api = (await example()).url;
    origin = new URL(api).origin;
  }, 120_000);
  afterAll(async () => (await example()).stop());

  describe.sequential('the HTTP conformance suite, mounted', () => {
    // The process is shared with the tests below, so the suite's own stop leaves it running.
    describeHttpConformance(`${name} under /api/v1`, async () => ({ url: (await example()).url, stop: async () => {} }), {
      hostReadsWholeBody: READS_WHOLE_BODY.has(name),
    });
  });

  describe.sequential('the recipe', () => {
    it('prints the API base under /api/v1 and answers its own GET /health with 200 {"ok":true}', async () => {
      expect(api).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const health = await wire(`${origin}/health`);
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ ok: true });
    });

    it(`creates a pet through ${PARSERS[name]}: 201, the pet, and a Location under /api/v1`, async () => {
      const created = await wire(`${api}/pets`, { method: 'POST', headers: json, body: '{"name":"Mounted","categoryId":3}' });
      expect({ status: created.status, body: bodyOf(created) }).toMatchObject({ status: 201 });
      const pet = JSON.parse(created.body);
      expect(pet).toEqual({ id: expect.any(Number), name: 'Mounted', categoryId: 3 });
      expect(created.headers.location).toBe(`/api/v1/pets/${pet.id}`);
      expect(JSON.parse((await wire(`${api}/pets/${pet.id}`, { headers: json })).body)).toEqual(pet);
    });

    it.each(Object.entries(BAD_BODIES))(
      `answers a body %s, sent through ${PARSERS[name]}, with the same 400 as a Pet Store with nothing in front`,
      async (_, body) => {
        // A copy: the fetch ponyfill writes Content-Length into a plain headers object it is given.
        const expected = await plain.fetch('http://localhost/v1/pets', { method: 'POST', headers: { ...json }, body });
        const response = await wire(`${api}/pets`, { method: 'POST', headers: json, body });
        expect({ status: response.status, body: bodyOf(response) }).toEqual({ status: expected.status, body: await expected.json() });
        expect(response.status).toBe(400);
      },
    );

    it('answers HEAD on every GET route with the GET’s status and headers, and no body', async () => {
      const created = await wire(`${api}/pets`, { method: 'POST', headers: json, body: '{"name":"Head","categoryId":1}' });
      const { id } = JSON.parse(created.body);
      // From 127.0.0.3: the public openapi.json counts against the caller's address, and the
      // anonymous-budget test spends 127.0.0.1's.
      const from = { localAddress: '127.0.0.3', headers: { authorization: `Bearer ${KEY}` } };
      for (const path of ['/pets?limit=2', `/pets/${id}`, '/pets/999999', '/openapi.json']) {
        const get = await wire(`${api}${path}`, from);
        const head = await wire(`${api}${path}`, { ...from, method: 'HEAD' });
        expect({ path, status: head.status, headers: stableHeaders(head) }).toEqual({ path, status: get.status, headers: stableHeaders(get) });
        // A Content-Length on HEAD must be the GET's body length (RFC 9110 §9.3.2); none is fine too.
        if (head.headers['content-length'] !== undefined) expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.body));
        expect(await rawHead(`${api}${path}`, '127.0.0.3')).toEqual({ status: get.status, afterHeaders: '' });
      }
    });

    it('gives 127.0.0.1 and 127.0.0.2 separate anonymous budgets, and X-Forwarded-For moves no caller to another', async () => {
      // The conformance suite above already spent most of 127.0.0.1's minute; spend the rest.
      let status = 0;
      for (let i = 0; i < 61 && status !== 429; i++) status = (await wire(`${api}/pets`, { localAddress: '127.0.0.1' })).status;
      expect(status).toBe(429);
      const other = await wire(`${api}/pets`, { localAddress: '127.0.0.2' });
      expect(other.status).toBe(401);
      expect(other.headers['x-ratelimit-remaining']).toBe('59');
      // trustProxy is off: forwarding headers are anyone's to send, so they change nothing.
      const forged = { 'x-forwarded-for': '127.0.0.9', forwarded: 'for=127.0.0.9' };
      expect((await wire(`${api}/pets`, { localAddress: '127.0.0.1', headers: forged })).status).toBe(429);
      const still = await wire(`${api}/pets`, { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(still.status).toBe(401);
      expect(still.headers['x-ratelimit-remaining']).toBe('58');
    });
  });
});
