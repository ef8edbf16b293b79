/** What an operator sees on a real server: /healthz, and the onRequest/onResponse hooks (status, time, address), which cannot break an answer. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPetStore, type Exchange } from '../../compose/index.ts';
import { expectError, postPet, startServer, type TestServer } from '../helpers/server.ts';

/** The origin of a test server: /healthz is beside the base path, not under it. */
const originOf = (server: TestServer) => new URL(server.url).origin;

/** What an Exchange says, in the terms a log line would use. */
const summary = ({ request, response, ms, clientAddress }: Exchange) => {
  const { pathname, search } = new URL(request.url);
  return { method: request.method, path: pathname + search, status: response.status, ms, clientAddress };
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} at the root, without a key', async () => {
    const server = await startServer();
    const response = await fetch(`${originOf(server)}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers HEAD with 200, the length GET would send and no body', async () => {
    const server = await startServer();
    const response = await fetch(`${originOf(server)}/healthz`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String('{"status":"ok"}'.length));
    expect(await response.text()).toBe('');
  });

  it('answers OPTIONS with 204 and Allow: GET, HEAD, OPTIONS', async () => {
    const server = await startServer();
    const response = await fetch(`${originOf(server)}/healthz`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it.each(['POST', 'PUT', 'DELETE'])('answers %s with 405 method_not_allowed and Allow: GET, HEAD, OPTIONS', async (method) => {
    const server = await startServer();
    const response = await fetch(`${originOf(server)}/healthz`, { method });
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    await expectError(response, 405, 'method_not_allowed');
  });

  it('is never counted: after 100 probes an anonymous caller still has 59 of 60 requests left', async () => {
    const server = await startServer();
    for (let i = 0; i < 100; i++) expect((await fetch(`${originOf(server)}/healthz`)).status).toBe(200);
    const anonymous = await fetch(`${server.url}/pets`);
    expect(anonymous.headers.get('x-ratelimit-remaining')).toBe('59');
    await expectError(anonymous, 401, 'unauthorized');
  });

  it('is never refused: a caller over its quota and banned still gets 200', async () => {
    const server = await startServer();
    let last: Response | undefined;
    for (let i = 0; i < 75; i++) last = await fetch(`${server.url}/pets`);
    await expectError(last!, 429, 'key_banned');
    const health = await fetch(`${originOf(server)}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('is at the mount path root under a prefix: /api/healthz', async () => {
    const petstore = createPetStore();
    const server = createServer((req, res) => void petstore(req, res, { mountPath: '/api' })).listen(0, '127.0.0.1');
    await once(server, 'listening');
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await fetch(`${origin}/api/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('is not in the served OpenAPI document: it is outside the API', async () => {
    const server = await startServer();
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.includes('health'))).toEqual([]);
  });
});

describe('the onRequest and onResponse hooks on node:http', () => {
  it('see each request, then its status, time and the socket peer address', async () => {
    const requests: string[] = [];
    const exchanges: Exchange[] = [];
    const server = await startServer({
      onRequest: (request) => void requests.push(`${request.method} ${new URL(request.url).pathname}`),
      onResponse: (exchange) => void exchanges.push(exchange),
    });
    expect((await server.api('/pets?limit=7')).status).toBe(200);
    expect((await postPet(server, { name: 'Rex', categoryId: 1 })).status).toBe(201);
    expect((await fetch(`${originOf(server)}/nowhere`)).status).toBe(404);
    expect((await fetch(`${originOf(server)}/healthz`)).status).toBe(200);
    expect(requests).toEqual(['GET /v1/pets', 'POST /v1/pets', 'GET /nowhere', 'GET /healthz']);
    expect(exchanges.map(summary)).toEqual([
      { method: 'GET', path: '/v1/pets?limit=7', status: 200, ms: expect.any(Number), clientAddress: '127.0.0.1' },
      { method: 'POST', path: '/v1/pets', status: 201, ms: expect.any(Number), clientAddress: '127.0.0.1' },
      { method: 'GET', path: '/nowhere', status: 404, ms: expect.any(Number), clientAddress: '127.0.0.1' },
      { method: 'GET', path: '/healthz', status: 200, ms: expect.any(Number), clientAddress: '127.0.0.1' },
    ]);
    expect(exchanges.every(({ ms }) => ms > 0 && ms < 5_000)).toBe(true);
  });

  it('report the address the limits use: behind a trusted proxy, the one it forwarded for', async () => {
    const exchanges: Exchange[] = [];
    const server = await startServer({ trustProxy: 1, onResponse: (exchange) => void exchanges.push(exchange) });
    await server.api('/pets', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(exchanges.map(({ clientAddress }) => clientAddress)).toEqual(['203.0.113.9']);
  });

  it('cannot change the answer: hooks that throw go to onError, and the client gets the same status, headers and body', async () => {
    const errors: unknown[] = [];
    const requestFailure = new Error('onRequest failed');
    const responseFailure = new Error('onResponse failed');
    const watched = await startServer({
      onError: (error) => errors.push(error),
      onRequest: () => {
        throw requestFailure;
      },
      onResponse: () => {
        throw responseFailure;
      },
    });
    const plain = await startServer();
    const answers = await Promise.all(
      [watched, plain].map(async (server) => {
        const created = await postPet(server, { name: 'Rex', categoryId: 1 });
        return { status: created.status, location: created.headers.get('location'), body: await created.json() };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual({ status: 201, location: '/v1/pets/1', body: { id: 1, name: 'Rex', categoryId: 1 } });
    expect(errors).toEqual([requestFailure, responseFailure]);
  });
});
