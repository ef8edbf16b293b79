/** Pipelined requests followed by a broken one, on raw sockets: every request the handler took is answered, in order, before the error. */
import { describe, expect, it } from 'vitest';
import { expectRawError, rawConnect, requestHead } from '../helpers/raw-http.ts';
import { KEY, startServer } from '../helpers/server.ts';

const AUTH = `Authorization: Bearer ${KEY}`;
const PET = '{"name":"Rex","categoryId":1}';
const postPet = requestHead(['POST /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Content-Type: application/json', `Content-Length: ${PET.length}`]) + PET;
const getPets = requestHead(['GET /v1/pets HTTP/1.1', 'Host: x', AUTH]);

describe('pipelined requests before a malformed one', () => {
  it('sends the 201 of a POST pipelined before garbage, then a JSON 400, then closes, and stores the pet once', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(`${postPet}GARBAGE\r\n\r\n`);
    const [created, error, ...others] = await connection.untilClosed();
    expect(created?.status).toBe(201);
    expect(created?.headers['content-type']).toBe('application/json');
    const pet = JSON.parse(created!.body) as { id: number; name: string };
    expect(pet).toMatchObject({ name: 'Rex' });
    expectRawError(error, 400, 'invalid_request');
    expect(others).toEqual([]);
    expect(await (await server.api('/pets')).json()).toEqual([pet]);
  });

  it('answers a GET pipelined before a PRI request line (the HTTP/2 preface), then the PRI with a JSON 400, then closes', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(`${getPets}PRI /v1/pets/0\r\nhost: api.example:443\r\n\r\n`);
    const [listed, refused, ...others] = await connection.untilClosed();
    expect(listed?.status).toBe(200);
    expect(JSON.parse(listed!.body)).toEqual([]);
    expectRawError(refused, 400, 'invalid_request');
    expect(others).toEqual([]);
  });

  it('answers three pipelined GETs in order before the JSON 400 for the garbage after them, then closes', async () => {
    const server = await startServer();
    await server.api('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: PET });
    const connection = await rawConnect(server.url);
    connection.write(`${getPets}${getPets}${getPets}GARBAGE\r\n\r\n`);
    const responses = await connection.untilClosed();
    expect(responses.map(({ status }) => status)).toEqual([200, 200, 200, 400]);
    for (const { body } of responses.slice(0, 3)) expect(JSON.parse(body)).toMatchObject([{ name: 'Rex' }]);
    expectRawError(responses[3], 400, 'invalid_request');
  });

  it('answers a GET pipelined before a POST with a garbage chunk size, then the POST with a JSON 400, then closes', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ onError: (error) => errors.push(error) });
    const connection = await rawConnect(server.url);
    connection.write(
      getPets + requestHead(['POST /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Content-Type: application/json', 'Transfer-Encoding: chunked']) + 'zz\r\n',
    );
    const [listed, error, ...others] = await connection.untilClosed();
    expect(listed?.status).toBe(200);
    expect(JSON.parse(listed!.body)).toEqual([]);
    expectRawError(error, 400, 'invalid_request');
    expect(others).toEqual([]);
    expect(await (await server.api('/pets')).json()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('answers a request pipelined before CONNECT, then the JSON 405, then closes', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(`${getPets}${requestHead(['CONNECT a:443 HTTP/1.1', 'Host: a:443'])}`);
    const [listed, refused, ...others] = await connection.untilClosed();
    expect(listed?.status).toBe(200);
    expectRawError(refused, 405, 'method_not_allowed');
    expect(others).toEqual([]);
  });

  it('closes the connection after answering a request that asks to Upgrade, since Node drops what is pipelined after it', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(requestHead(['GET /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Connection: Upgrade', 'Upgrade: h2c']) + getPets);
    const [listed, ...others] = await connection.untilClosed();
    expect(listed?.status).toBe(200);
    expect(listed?.headers.connection).toBe('close');
    // The pipelined GET was never read: the close tells the client to send it again elsewhere.
    expect(others).toEqual([]);
  });
});
