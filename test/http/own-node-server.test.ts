/** answerClientErrors on a node:http server the user creates: the same JSON answers serve() gives. */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerClientErrors, createPetStore } from '../../runtimes/node/index.ts';
import { expectRawError, rawConnect, requestHead } from '../helpers/raw-http.ts';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close().closeAllConnections();
});

async function ownServer(withAnswers: boolean): Promise<string> {
  const server = createServer({ requireHostHeader: false }, createPetStore({ apiKeys: { 'my-key': 'free' } }));
  if (withAnswers) answerClientErrors(server);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('answerClientErrors on your own node:http server', () => {
  it('answers a create pipelined before garbage with its 201, then a JSON 400, then closes', async () => {
    const connection = await rawConnect(await ownServer(true));
    const body = '{"name":"Rex","categoryId":1}';
    const create = ['POST /v1/pets HTTP/1.1', 'Host: x', 'Authorization: Bearer my-key', 'Content-Type: application/json', `Content-Length: ${body.length}`];
    connection.write(requestHead(create) + body + 'GARBAGE\r\n\r\n');
    const [created, refused, ...others] = await connection.untilClosed();
    expect(created?.status).toBe(201);
    expect(JSON.parse(created!.body)).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
    expectRawError(refused, 400, 'invalid_request');
    expect(others).toEqual([]);
  });

  it("answers a request without Host with the handler's JSON 400 when the server does not require one", async () => {
    const connection = await rawConnect(await ownServer(false));
    connection.write(requestHead(['GET /v1/pets HTTP/1.1', 'Authorization: Bearer my-key', 'Connection: close']));
    expectRawError((await connection.untilClosed())[0], 400, 'invalid_request');
  });
});
