/**
 * A fake backend answers a request whose Host the edge refuses as a plain store does (400), over a
 * real node:http server: its journal and its fault rules read the path from a URL that may not
 * parse, and must not turn the answer into a 500.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/create-pet-store.ts';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { createTestPetStore } from '../../testing/index.ts';
import { rawConnect, requestHead, type RawResponse } from '../helpers/raw-http.ts';

const KEY = 'host-key-0123456789';
const TOKEN = 'host-admin-token-0123456789';
const running: RunningPetStore[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** `GET target` with `Host: host` on a fresh connection, and its raw response. */
async function withHost(url: string, target: string, host: string): Promise<RawResponse> {
  const connection = await rawConnect(url);
  connection.write(requestHead([`GET ${target} HTTP/1.1`, `Host: ${host}`, `Authorization: Bearer ${KEY}`, 'Connection: close']));
  return (await connection.untilClosed())[0]!;
}

const BAD_HOSTS = ['example.test:99999', 'exa mple.test'];

describe('a request whose Host the edge refuses', () => {
  it.each(BAD_HOSTS)('is a 400 from the test kit, as from a plain store, and the journal records it (Host: %s)', async (host) => {
    const errors: unknown[] = [];
    const plain = await serve(createPetStore({ apiKeys: { [KEY]: 'pro' } }), { port: 0 });
    const petstore = createTestPetStore({ apiKeys: { [KEY]: 'pro' }, onError: (error) => errors.push(error) });
    const kit = await serve(petstore, { port: 0 });
    running.push(plain, kit);
    const expected = await withHost(plain.url, '/v1/pets?limit=2', host);
    expect(expected.status).toBe(400);
    const response = await withHost(kit.url, '/v1/pets?limit=2', host);
    expect([response.status, JSON.parse(response.body)]).toEqual([expected.status, JSON.parse(expected.body)]);
    expect(errors).toEqual([]);
    expect(petstore.requests.map(({ method, path, query, status }) => ({ method, path, query, status }))).toEqual([
      { method: 'GET', path: '/v1/pets', query: 'limit=2', status: 400 },
    ]);
  });

  it.each(BAD_HOSTS)(
    'keeps the edge’s 400 when a fault rule names its path: a refused request never reaches where a fault answers (Host: %s)',
    async (host) => {
      const errors: unknown[] = [];
      const server = await serve(createPetStore({ apiKeys: { [KEY]: 'pro' }, admin: { token: TOKEN }, onError: (error) => errors.push(error) }), { port: 0 });
      running.push(server);
      const injected = await fetch(new URL('/__admin/faults', server.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 401, path: '/v1/pets', times: 'always' }),
      });
      expect(injected.status).toBe(201);
      const response = await withHost(server.url, '/v1/pets', host);
      expect([response.status, response.reason, JSON.parse(response.body).code]).toEqual([400, 'Bad Request', 'invalid_request']);
      expect(errors).toEqual([]);
    },
  );

  it.each(BAD_HOSTS)('under /__admin is the edge’s 400, never an injected fault: admin requests are not faulted (Host: %s)', async (host) => {
    const server = await serve(createPetStore({ apiKeys: { [KEY]: 'pro' }, admin: { token: TOKEN }, onError: () => {} }), { port: 0 });
    running.push(server);
    const injected = await fetch(new URL('/__admin/faults', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 503, times: 'always' }),
    });
    expect(injected.status).toBe(201);
    const response = await withHost(server.url, '/__admin/openapi.json', host);
    expect([response.status, JSON.parse(response.body).code]).toEqual([400, 'invalid_request']);
    const journal = await fetch(new URL('/__admin/requests', server.url), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(await journal.json()).toEqual([]);
  });
});
