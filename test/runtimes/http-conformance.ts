/** One HTTP suite for every runtime's server (like @whatwg-node's runTestsForEachFetchImpl). */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The key every runtime server under test is started with (PETSTORE_API_KEYS). */
export const CONFORMANCE_KEYS = 'conformance-key:enterprise:100000:1000000';
const auth = { authorization: 'Bearer conformance-key' };
const json = { ...auth, 'content-type': 'application/json' };

/** A running server: its base URL and how to stop it. */
export interface RuntimeServer {
  readonly url: string;
  stop(): Promise<void>;
}

async function errorBody(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = await response.json();
  expect(body).toMatchObject({ code, status });
  return body;
}

/** What a host in front of the Pet Store does that the suite must know to judge it fairly. */
export interface HostTraits {
  /**
   * The host's body parser reads every body to its end, even past its limit, before the Pet Store
   * sees the request (body-parser behind `express.json()` does): a streamed body that never ends
   * can then not be answered, by design. The streamed-413 case then sends a body that does end,
   * and asserts what a client sees: the Pet Store's JSON 413.
   */
  readonly hostReadsWholeBody?: boolean;
}

/**
 * Defines the suite for one runtime. `start` launches a server with {@link CONFORMANCE_KEYS};
 * the tests share it and never depend on each other's pets.
 */
export function describeHttpConformance(runtime: string, start: () => Promise<RuntimeServer>, { hostReadsWholeBody = false }: HostTraits = {}) {
  describe(`HTTP conformance on ${runtime}`, () => {
    let server: RuntimeServer;
    const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers: { ...auth, ...init.headers } });
    const create = (pet: object) => api('/pets', { method: 'POST', headers: json, body: JSON.stringify(pet) });
    // The path the API answers under, from the URL the server printed: `/v1` alone, `/api/v1` when mounted.
    const basePath = () => new URL(server.url).pathname.replace(/\/$/, '');

    beforeAll(async () => {
      server = await start();
    }, 120_000);
    afterAll(() => server?.stop());

    it('creates a pet (201, Location) and serves it on the deprecated get-by-id with its headers', async () => {
      const created = await create({ name: 'Rex', categoryId: 7, status: 'sold', id: 999 });
      expect(created.status).toBe(201);
      const pet = await created.json();
      expect(pet).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 7, status: 'sold' });
      expect(created.headers.get('location')).toBe(`${basePath()}/pets/${pet.id}`);
      const fetched = await api(`/pets/${pet.id}`);
      expect(await fetched.json()).toEqual(pet);
      expect(fetched.headers.get('deprecation')).toBe('@1767225600');
      expect(fetched.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(fetched.headers.get('link')).toBe(`<${basePath()}/pets>; rel="successor-version"`);
    });

    it('pages through pets in ascending id order with Link rel="next"', async () => {
      for (let i = 0; i < 5; i++) await create({ name: `page ${i}`, categoryId: 1, status: 'pending' });
      const ids: number[] = [];
      let next: string | undefined = `${server.url}/pets?status=pending&limit=2`;
      while (next) {
        const response: Response = await fetch(next, { headers: auth });
        ids.push(...(await response.json()).map((p: { id: number }) => p.id));
        const link = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
        // Links are relative to the host: resolved against the URL the client asked, as a browser does.
        if (link) expect(link.split('?')[0]).toBe(`${basePath()}/pets`);
        next = link && new URL(link, next).href;
      }
      expect(ids.length).toBeGreaterThanOrEqual(5);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('answers bad input with 400 invalid_request and details', async () => {
      expect((await errorBody(await api('/pets?limit=101'), 400, 'invalid_request')).details[0].field).toBe('limit');
      await errorBody(await api('/pets?status=lost'), 400, 'invalid_request');
      await errorBody(await api('/pets?limit=1&limit=2'), 400, 'invalid_request');
      await errorBody(await api('/pets/abc'), 400, 'invalid_request');
      const body = await errorBody(await create({ name: '', categoryId: 2 ** 53 }), 400, 'invalid_request');
      expect(body.details.map((d: { field: string }) => d.field)).toEqual(['name', 'categoryId']);
      await errorBody(await api('/pets', { method: 'POST', headers: json, body: '{"__proto__":{}}' }), 400, 'invalid_request');
    });

    it('answers 401 with a Bearer challenge, before telling paths apart', async () => {
      const anonymous = await fetch(`${server.url}/nowhere`);
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
      await errorBody(anonymous, 401, 'unauthorized');
      const wrong = await fetch(`${server.url}/pets`, { headers: { authorization: 'Bearer wrong' } });
      expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
      await errorBody(wrong, 401, 'unauthorized');
    });

    it('answers 404, 405 with Allow, HEAD without a body, and the public OpenAPI document', async () => {
      await errorBody(await api('/nowhere'), 404, 'not_found');
      await errorBody(await api('/pets/999999'), 404, 'not_found');
      const notAllowed = await api('/pets', { method: 'DELETE' });
      expect(notAllowed.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
      await errorBody(notAllowed, 405, 'method_not_allowed');
      const head = await api('/pets', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      const document = await fetch(`${server.url}/openapi.json`);
      const { openapi, servers } = await document.json();
      expect(openapi).toBe('3.1.0');
      expect(servers).toEqual([{ url: basePath() }]);
    });

    const streamed = hostReadsWholeBody ? 'streamed to its end (the host reads every body whole before the API sees it)' : 'streamed';
    it(`answers 415 for a non-JSON body and 413 past 64 KiB, declared or ${streamed}`, async () => {
      await errorBody(await api('/pets', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), 415, 'unsupported_media_type');
      await errorBody(await api('/pets', { method: 'POST', headers: json, body: 'x'.repeat(65_537) }), 413, 'payload_too_large');
      const { status, body } = await chunkedPost(`${server.url}/pets`, 72 * 1024, { end: hostReadsWholeBody });
      expect(status).toBe(413);
      expect(JSON.parse(body)).toMatchObject({ code: 'payload_too_large' });
    });

    it('sends the quota headers on successes and errors', async () => {
      for (const response of [await api('/pets'), await api('/pets?limit=0'), await fetch(`${server.url}/pets`)]) {
        expect(Number(response.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
        expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^[0-9]+$/);
        expect(response.headers.get('x-ratelimit-reset')).toMatch(/^[0-9]+$/);
        expect(response.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
      }
      expect((await api('/pets')).headers.get('ratelimit-policy')).toBe('"minute";q=100000;w=60, "day";q=1000000;w=86400');
    });

    it('gives 50 concurrent creates 50 distinct ids', async () => {
      const pets = await Promise.all(Array.from({ length: 50 }, (_, i) => create({ name: `c${i}`, categoryId: i }).then((r) => r.json())));
      expect(new Set(pets.map((p) => p.id)).size).toBe(50);
    });

    it('limits a client without a key by its address: the 61st anonymous request in a minute is 429', async () => {
      // The server's clock is real: a minute may turn during the loop, so it runs until the first
      // 429, within two minutes' budgets, and the limit holds exactly if that 429 follows the 401
      // that spent the minute's last request. Earlier tests spent some of this minute's budget.
      const answers: { status: number; remaining: string | null }[] = [];
      while (answers.length < 122 && answers.at(-1)?.status !== 429) {
        const response = await fetch(`${server.url}/pets`);
        answers.push({ status: response.status, remaining: response.headers.get('x-ratelimit-remaining') });
      }
      expect(answers.at(-1)).toEqual({ status: 429, remaining: '0' });
      expect(answers.at(-2)).toEqual({ status: 401, remaining: '0' });
      expect(answers.slice(0, -1).every(({ status }) => status === 401)).toBe(true);
    });
  });
}

/**
 * POSTs `size` bytes of a chunked body on a raw socket and, unless `end`, never ends it: a server
 * that waits for the end would hang, one that enforces its limit answers 413. Writing then stops,
 * so the server has read all it was sent and can close cleanly (no reset that would swallow its answer).
 */
function chunkedPost(url: string, size: number, { end = false } = {}): Promise<{ status: number; body: string }> {
  const { hostname, port, pathname } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => {});
  const chunk = '{"name":"' + 'x'.repeat(8191);
  let body = '';
  for (let sent = 0; sent < size; sent += chunk.length) body += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
  socket.write(
    `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${auth.authorization}\r\n` +
      'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n' +
      body +
      (end ? '0\r\n\r\n' : ''),
  );
  return new Promise((resolve) => {
    const answer = () => {
      const [head = '', ...rest] = received.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: dechunk(head, rest.join('\r\n\r\n')) });
      socket.destroy();
    };
    socket.once('close', answer);
    // Some servers keep the socket open after answering; a complete answer is enough.
    socket.on('data', () => {
      if (/\r\n\r\n[\s\S]*\}/.test(received)) answer();
    });
  });
}

/** The body of a raw response, chunked transfer coding removed. */
function dechunk(head: string, body: string): string {
  if (!/transfer-encoding: chunked/i.test(head)) return body;
  let text = '';
  for (let rest = body; rest; ) {
    const end = rest.indexOf('\r\n');
    const length = parseInt(rest.slice(0, end), 16);
    if (!length) break;
    text += rest.slice(end + 2, end + 2 + length);
    rest = rest.slice(end + 4 + length);
  }
  return text;
}
