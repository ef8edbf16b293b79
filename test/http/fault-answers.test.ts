/**
 * Injected faults look like the real thing: an injected error answer carries every header the real
 * answer to the same request carries (quota, deprecation, CORS) and its status line's reason phrase,
 * in process and over a real node:http server, from the test kit and from the admin API.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/create-pet-store.ts';
import type { FaultRule } from '../../controls/index.ts';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { createTestPetStore } from '../../testing/index.ts';
import { rawConnect, requestHead, type RawResponse } from '../helpers/raw-http.ts';

const KEY = 'fault-key-0123456789';
const TOKEN = 'fault-admin-token-0123456789';
const ORIGIN = 'https://app.example';
const NOW = Date.parse('2026-06-01T12:00:30Z');

const running: RunningPetStore[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** What a client sends on every request here: the key and a CORS origin. */
const SENT = { authorization: `Bearer ${KEY}`, origin: ORIGIN };

/** One request per operation, each answered by the operation itself when no fault is injected. */
const REQUESTS: readonly [string, string, string, string?][] = [
  ['listPets (a page)', 'GET', '/v1/pets'],
  ['listPets (a refused query)', 'GET', '/v1/pets?limit=0'],
  ['listPets (HEAD)', 'HEAD', '/v1/pets'],
  ['createPet (an invalid pet)', 'POST', '/v1/pets', '{}'],
  ['getPetById (found)', 'GET', '/v1/pets/1'],
  ['getPetById (not found)', 'GET', '/v1/pets/999'],
  ['the OpenAPI document', 'GET', '/v1/openapi.json'],
];

/** Sends `method path` on a fresh connection and reads the one raw response (its head only for HEAD, which has no body to frame). */
async function rawRequest(url: string, method: string, path: string, body?: string): Promise<RawResponse> {
  const { host } = new URL(url);
  const connection = await rawConnect(url);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, `Authorization: Bearer ${KEY}`, `Origin: ${ORIGIN}`, 'Connection: close'];
  if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  connection.write(requestHead(lines) + (body ?? ''));
  if (method !== 'HEAD') return (await connection.untilClosed())[0]!;
  await connection.closed;
  const [statusLine = '', ...headerLines] = connection.received().split('\r\n\r\n')[0]!.split('\r\n');
  const [, status = '', reason = ''] = /^HTTP\/1\.1 (\d{3}) ?(.*)$/.exec(statusLine) ?? [];
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(status), reason, headers, body: '' };
}

/** The header names a client can compare: what framing and the connection add aside. */
function comparableNames(names: Iterable<string>): string[] {
  const framing = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);
  return [...new Set([...names].map((name) => name.toLowerCase()))].filter((name) => !framing.has(name)).sort();
}

/** The headers an injected 503 on `GET /v1/pets/{id}` must carry, as a real answer there does. */
function expectRealHeaders(headers: (name: string) => string | null | undefined) {
  expect(headers('deprecation')).toMatch(/^@\d+$/);
  expect(headers('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(headers('link')).toMatch(/rel="successor-version"/);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy']) {
    expect([name, headers(name)]).toEqual([name, expect.any(String)]);
  }
  expect(headers('access-control-allow-origin')).toBe(ORIGIN);
  expect(headers('access-control-expose-headers')).toMatch(/Deprecation/);
  expect(headers('retry-after')).toBe('5');
}

/** A test store with a pet, the key and CORS, and its clock on {@link NOW}. */
async function testKit() {
  const petstore = createTestPetStore({ apiKeys: { [KEY]: 'pro' }, cors: [ORIGIN], start: NOW });
  await petstore.seed([{ name: 'Rex', categoryId: 1 }]);
  return petstore;
}

/** A store with the admin API over a real server, a pet seeded, and a way to inject a fault. */
async function adminServer() {
  const server = await serve(createPetStore({ apiKeys: { [KEY]: 'pro' }, cors: [ORIGIN], admin: { token: TOKEN }, now: () => NOW }), { port: 0 });
  running.push(server);
  const admin = (path: string, body: unknown) =>
    fetch(new URL(`/__admin${path}`, server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await admin('/seed', [{ name: 'Rex', categoryId: 1 }])).status).toBe(201);
  const inject = async (rule: FaultRule) => expect((await admin('/faults', rule)).status).toBe(201);
  return { server, inject };
}

describe('an injected 503 on GET /v1/pets/{id}', () => {
  it('carries Deprecation, Sunset, the successor Link, the quota headers and CORS in process, spending the quota a real request spends', async () => {
    const petstore = await testKit();
    const real = await petstore.fetch('http://api.test/v1/pets/1', { headers: SENT });
    petstore.faults.failNext(1, { path: '/v1/pets/1', retryAfterSeconds: 5 });
    const injected = await petstore.fetch('http://api.test/v1/pets/1', { headers: SENT });
    expect([injected.status, injected.statusText]).toEqual([503, 'Service Unavailable']);
    expectRealHeaders((name) => injected.headers.get(name));
    for (const name of ['deprecation', 'sunset', 'link', 'x-ratelimit-limit', 'ratelimit-policy']) {
      expect([name, injected.headers.get(name)]).toEqual([name, real.headers.get(name)]);
    }
    expect(Number(injected.headers.get('x-ratelimit-remaining'))).toBe(Number(real.headers.get('x-ratelimit-remaining')) - 1);
    expect(await injected.json()).toEqual({ code: 'service_unavailable', message: 'Injected fault: 503 service_unavailable.', status: 503 });
    // The journal records what the client got.
    expect(petstore.requests.at(-1)?.responseHeaders).toMatchObject({ deprecation: expect.any(String), 'x-ratelimit-remaining': expect.any(String) });
  });

  it('says "HTTP/1.1 503 Service Unavailable" and carries the same headers from the test kit over a real node:http server', async () => {
    const petstore = await testKit();
    const served = await serve(petstore, { port: 0 });
    running.push(served);
    petstore.faults.failNext(1, { path: '/v1/pets/1', retryAfterSeconds: 5 });
    const response = await rawRequest(served.url, 'GET', '/v1/pets/1');
    expect([response.status, response.reason]).toEqual([503, 'Service Unavailable']);
    expectRealHeaders((name) => response.headers[name]);
  });

  it('says "HTTP/1.1 503 Service Unavailable" and carries the same headers from a fault posted to the admin API', async () => {
    const { server, inject } = await adminServer();
    await inject({ status: 503, path: '/v1/pets/1', retryAfterSeconds: 5 });
    const response = await rawRequest(server.url, 'GET', '/v1/pets/1');
    expect([response.status, response.reason]).toEqual([503, 'Service Unavailable']);
    expectRealHeaders((name) => response.headers[name]);
  });

  it('after handling, and as a 429, still carries the route and CORS headers; the 429 tells the plan with nothing remaining', async () => {
    const petstore = await testKit();
    petstore.faults.inject({ status: 503, path: '/v1/pets/1', afterHandling: true, retryAfterSeconds: 5 });
    const lost = await petstore.fetch('http://api.test/v1/pets/1', { headers: SENT });
    expect(lost.status).toBe(503);
    expectRealHeaders((name) => lost.headers.get(name));
    petstore.faults.inject({ status: 429, path: '/v1/pets/1', retryAfterSeconds: 5 });
    const limited = await petstore.fetch('http://api.test/v1/pets/1', { headers: SENT });
    expect([limited.status, limited.statusText]).toEqual([429, 'Too Many Requests']);
    expectRealHeaders((name) => limited.headers.get(name));
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-policy')).toBe('"minute";q=300;w=60, "day";q=10000;w=86400');
  });
});

describe('an injected answer, whatever the key', () => {
  it('answers a request with no key or a wrong one, counted as the free plan counts its address, not a 401', async () => {
    const petstore = await testKit();
    const server = await serve(petstore, { port: 0 });
    running.push(server);
    for (const authorization of [undefined, 'Bearer wrong-key-0123456789']) {
      petstore.faults.failNext(1, { path: '/v1/pets/1', retryAfterSeconds: 5 });
      const response = await fetch(`${server.url}/pets/1`, { headers: { origin: ORIGIN, ...(authorization && { authorization }) } });
      expect([authorization, response.status, response.headers.get('www-authenticate')]).toEqual([authorization, 503, null]);
      expect(response.headers.get('x-ratelimit-limit')).toBe('60');
      expectRealHeaders((name) => response.headers.get(name));
    }
  });
});

describe('an injected 405', () => {
  it('says the methods of the path in Allow, as the real 405 there does', async () => {
    const petstore = await testKit();
    const real = await petstore.fetch('http://api.test/v1/pets/1', { method: 'POST', headers: SENT });
    expect(real.status).toBe(405);
    petstore.faults.inject({ status: 405, path: '/v1/pets/1' });
    const injected = await petstore.fetch('http://api.test/v1/pets/1', { headers: SENT });
    expect([injected.status, injected.statusText, injected.headers.get('allow')]).toEqual([405, 'Method Not Allowed', real.headers.get('allow')]);
    expect(comparableNames(injected.headers.keys())).toEqual(comparableNames(real.headers.keys()));
  });
});

describe('an injected answer has the header names of the real answer to the same request, for every operation', () => {
  it.each(REQUESTS)('%s, in process', async (_, method, path, body) => {
    const petstore = await testKit();
    const send = () => petstore.fetch(`http://api.test${path}`, { method, headers: { ...SENT, 'content-type': 'application/json' }, body: body ?? null });
    const real = await send();
    petstore.faults.failNext(1, { retryAfterSeconds: 5 });
    const injected = await send();
    expect([injected.status, injected.statusText]).toEqual([503, 'Service Unavailable']);
    expect(comparableNames(injected.headers.keys())).toEqual(comparableNames([...real.headers.keys(), 'retry-after']));
  });

  it.each(REQUESTS)('%s, from the test kit over a real node:http server', async (_, method, path, body) => {
    const petstore = await testKit();
    const server = await serve(petstore, { port: 0 });
    running.push(server);
    const real = await rawRequest(server.url, method, path, body);
    petstore.faults.failNext(1, { retryAfterSeconds: 5 });
    const injected = await rawRequest(server.url, method, path, body);
    expect([injected.status, injected.reason]).toEqual([503, 'Service Unavailable']);
    expect(comparableNames(Object.keys(injected.headers))).toEqual(comparableNames([...Object.keys(real.headers), 'retry-after']));
  });

  it.each(REQUESTS)('%s, from the admin API over a real node:http server', async (_, method, path, body) => {
    const { server, inject } = await adminServer();
    const real = await rawRequest(server.url, method, path, body);
    await inject({ status: 503, retryAfterSeconds: 5 });
    const injected = await rawRequest(server.url, method, path, body);
    expect([injected.status, injected.reason]).toEqual([503, 'Service Unavailable']);
    expect(comparableNames(Object.keys(injected.headers))).toEqual(comparableNames([...Object.keys(real.headers), 'retry-after']));
  });
});
