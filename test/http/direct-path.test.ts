/**
 * Under node:http a plain store writes its replies directly (src/node-path.ts); with hooks it goes
 * through the @whatwg-node bridge. Both must answer every request alike: same status, headers and
 * body, byte for byte but the Date.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { createPetStore } from '../../compose/create-pet-store.ts';
import { memoryPetStorage } from '../../src/storage/memory-pet-storage.ts';
import { rawConnect } from '../helpers/raw-http.ts';

const KEY = 'direct-key-0123456789';
const running: RunningPetStore[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** Two servers over equal stores, one on each path; the bridge one is made to take the bridge by a hook. */
async function bothPaths() {
  const options = async () => {
    const storage = memoryPetStorage();
    for (let i = 0; i < 25; i++) await storage.create({ name: `pet ${i}`, categoryId: i, status: i % 2 ? 'sold' : 'available' });
    return {
      port: 0,
      storage,
      apiKeys: { [KEY]: 'pro' as const },
      cors: ['https://app.example'],
      now: () => Date.parse('2026-06-01T12:00:30Z'),
      onError: () => {},
    };
  };
  const direct = await serve(await options());
  const bridged = await serve({ ...(await options()), onRequest: () => {} });
  running.push(direct, bridged);
  return { direct, bridged };
}

/** What a client sees of a response, the Date aside. */
async function seen(response: Response) {
  const headers = [...response.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive');
  return { status: response.status, headers, body: await response.text() };
}

const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };
const requests: [string, string, RequestInit][] = [
  ['a page with a next link', '/pets?limit=5', { headers: auth }],
  ['a filtered page', '/pets?status=sold&limit=3', { headers: auth }],
  ['a pet', '/pets/3', { headers: auth }],
  ['HEAD of a page', '/pets', { method: 'HEAD', headers: auth }],
  ['no key', '/pets', {}],
  ['a wrong key', '/pets', { headers: { authorization: 'Bearer nope' } }],
  ['an unknown path', '/nothing', { headers: auth }],
  ['a wrong method', '/pets/3', { method: 'POST', headers: json, body: '{}' }],
  ['OPTIONS', '/pets', { method: 'OPTIONS', headers: auth }],
  ['a CORS preflight', '/pets', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } }],
  ['a create', '/pets', { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' }],
  ['an idempotent create', '/pets', { method: 'POST', headers: { ...json, 'idempotency-key': 'k-1' }, body: '{"name":"Tom","categoryId":2}' }],
  ['invalid JSON', '/pets', { method: 'POST', headers: json, body: '{"name":' }],
  ['an invalid pet', '/pets', { method: 'POST', headers: json, body: '{"name":"","categoryId":-1}' }],
  ['a body that is not JSON', '/pets', { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'hi' }],
  ['a body over the limit', '/pets', { method: 'POST', headers: json, body: `{"name":"${'x'.repeat(70_000)}","categoryId":1}` }],
  ['an empty body', '/pets', { method: 'POST', headers: json, body: '' }],
  ['a bad cursor', '/pets?cursor=zzz', { headers: auth }],
  ['the OpenAPI document', '/openapi.json', {}],
];

describe('the direct node:http path and the @whatwg-node bridge', () => {
  it.each(requests)('answer %s alike', async (_, path, init) => {
    const { direct, bridged } = await bothPaths();
    const [a, b] = await Promise.all([fetch(`${direct.url}${path}`, init), fetch(`${bridged.url}${path}`, init)]);
    expect(await seen(a)).toEqual(await seen(b));
  });

  it('answer /healthz and a path outside the base alike', async () => {
    const { direct, bridged } = await bothPaths();
    for (const path of ['/healthz', '/elsewhere']) {
      const [a, b] = await Promise.all([fetch(new URL(path, direct.url)), fetch(new URL(path, bridged.url))]);
      expect(await seen(a)).toEqual(await seen(b));
    }
  });
});

/**
 * Sends a create whose body's last `late` bytes follow only once `host` handed the request to the
 * store; `host` gets node:http's request before the store does. Resolves to the response.
 */
async function createThrough(host: (req: IncomingMessage, handOver: () => void) => void, late: number) {
  const store = createPetStore({ apiKeys: { [KEY]: 'pro' } });
  let handedOver!: () => void;
  const arrived = new Promise<void>((resolve) => (handedOver = resolve));
  const server = createServer((req: IncomingMessage, res: ServerResponse) =>
    host(req, () => {
      handedOver();
      void store(req, res);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const connection = await rawConnect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const body = '{"name":"Half and half","categoryId":1}';
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    connection.write(head + body.slice(0, body.length - late));
    await arrived;
    if (late > 0) connection.write(body.slice(-late));
    await connection.until(() => connection.responses().length === 1);
    connection.socket.destroy();
    const [response] = connection.responses();
    return { status: response!.status, body: JSON.parse(response!.body) as unknown };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('the direct path reading a body', () => {
  const created = { status: 201, body: { id: 1, name: 'Half and half', categoryId: 1 } };

  it('waits for the rest of a body that is only partly there when the store starts reading it', async () => {
    // Handed over once node:http has parsed the headers and the first part of the body.
    const response = await createThrough((req, handOver) => req.once('readable', handOver), 19);
    expect(response).toEqual(created);
  });

  it('reads a whole body as bytes when the host has set an encoding on the request', async () => {
    const response = await createThrough((req, handOver) => {
      req.setEncoding('utf8');
      req.once('readable', handOver);
    }, 0);
    expect(response).toEqual(created);
  });
});
