/**
 * Every status line carries a reason phrase, on both node:http paths (replies written directly, and
 * Responses through the @whatwg-node bridge), for the API's own answers, a storage's errors, injected
 * faults and the 503 a reset ends a held request with: read on a raw socket, as a client's parser sees it.
 */
import { STATUS_CODES } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type PetStorage } from '../../compose/index.ts';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { memoryPetStorage } from '../../src/storage/memory-pet-storage.ts';
import { createTestPetStore } from '../../testing/index.ts';
import { rawConnect, requestHead, type RawResponse } from '../helpers/raw-http.ts';

const KEY = 'phrase-key-0123456789';
const running: RunningPetStore[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** The phrase a status must carry: Node's, or for a status no registry names, its class. */
const phraseOf = (status: number) => STATUS_CODES[status] ?? (status < 500 ? 'Client Error' : 'Server Error');

/** Sends one request on a fresh connection and reads its raw response. */
async function rawRequest(url: string, lines: readonly string[], body = ''): Promise<RawResponse> {
  const connection = await rawConnect(url);
  connection.write(requestHead([...lines, `Host: ${new URL(url).host}`, 'Connection: close']) + body);
  return (await connection.untilClosed())[0]!;
}

/** A storage whose `get` of pet 503 or 599 throws that status, as a store that is down or odd does; the rest is memory. */
function oddStorage(): PetStorage {
  const inner = memoryPetStorage();
  return {
    ...inner,
    get: (id) => {
      if (id !== 503 && id !== 599) return inner.get(id);
      return Promise.reject(new ApiError({ status: id, code: 'service_unavailable', message: 'The store is down.', headers: { 'Retry-After': '1' } }));
    },
  };
}

const auth = `Authorization: Bearer ${KEY}`;
const create = ['POST /v1/pets HTTP/1.1', auth, 'Content-Type: application/json', 'Content-Length: 29'];
const REQUESTS: readonly [number, readonly string[], string?][] = [
  [200, ['GET /v1/pets HTTP/1.1', auth]],
  [201, create, '{"name":"Rex","categoryId":1}'],
  [204, ['OPTIONS /v1/pets HTTP/1.1', auth]],
  [400, ['GET /v1/pets?limit=0 HTTP/1.1', auth]],
  [401, ['GET /v1/pets HTTP/1.1']],
  [404, ['GET /v1/pets/7 HTTP/1.1', auth]],
  [405, ['DELETE /v1/pets HTTP/1.1', auth]],
  [415, ['POST /v1/pets HTTP/1.1', auth, 'Content-Type: text/plain', 'Content-Length: 2'], 'hi'],
  [503, ['GET /v1/pets/503 HTTP/1.1', auth]],
  [599, ['GET /v1/pets/599 HTTP/1.1', auth]],
];

describe('both node:http paths', () => {
  it.each(REQUESTS)('say the reason phrase of %i, and the same status line', async (status, lines, body) => {
    const options = { port: 0, apiKeys: { [KEY]: 'pro' as const }, onError: () => {} };
    const direct = await serve({ ...options, storage: oddStorage() });
    const bridged = await serve({ ...options, storage: oddStorage(), onRequest: () => {} });
    running.push(direct, bridged);
    for (const server of [direct, bridged]) {
      const response = await rawRequest(server.url, lines, body);
      expect([server === direct ? 'direct' : 'bridged', response.status, response.reason]).toEqual([
        server === direct ? 'direct' : 'bridged',
        status,
        phraseOf(status),
      ]);
    }
  });
});

describe('a test store over node:http', () => {
  it.each([503, 418, 429, 499, 599])('says the reason phrase of an injected %i', async (status) => {
    const petstore = createTestPetStore();
    const server = await serve(petstore, { port: 0 });
    running.push(server);
    petstore.faults.inject({ status });
    const response = await rawRequest(server.url, ['GET /v1/pets HTTP/1.1', `Authorization: Bearer ${petstore.keys.free}`]);
    expect([response.status, response.reason]).toEqual([status, phraseOf(status)]);
  });

  it('says "503 Service Unavailable" on a request a reset ends while a fault holds it', async () => {
    const petstore = createTestPetStore();
    const server = await serve(petstore, { port: 0 });
    running.push(server);
    petstore.faults.inject({ network: 'hang' });
    const held = rawRequest(server.url, ['GET /v1/pets HTTP/1.1', `Authorization: Bearer ${petstore.keys.free}`]);
    while (petstore.faults.pending > 0) await new Promise((resolve) => setImmediate(resolve));
    await petstore.reset();
    const response = await held;
    expect([response.status, response.reason]).toEqual([503, 'Service Unavailable']);
  });
});
