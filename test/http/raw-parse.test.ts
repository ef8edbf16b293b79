/** Requests node:http cannot parse or will not pass on, on raw sockets: each gets a JSON Error, then the connection closes. */
import { describe, expect, it } from 'vitest';
import { expectRawError, rawConnect, requestHead } from '../helpers/raw-http.ts';
import { KEY, startServer } from '../helpers/server.ts';

const AUTH = `Authorization: Bearer ${KEY}`;

const CREATE_HEAD = ['POST /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Content-Type: application/json'];
const PET = '{"name":"Rex","categoryId":1}';

describe('requests Node cannot parse', () => {
  it.each<[string, string, number, string]>([
    ['a chunked body with a garbage chunk size', requestHead([...CREATE_HEAD, 'Transfer-Encoding: chunked']) + 'zz\r\n', 400, 'invalid_request'],
    ['Transfer-Encoding: identity', requestHead([...CREATE_HEAD, 'Transfer-Encoding: identity']) + PET, 400, 'invalid_request'],
    [
      'both Content-Length and Transfer-Encoding',
      requestHead([...CREATE_HEAD, 'Content-Length: 35', 'Transfer-Encoding: chunked']) + `1d\r\n${PET}\r\n0\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      "chunk extensions over Node's limit",
      requestHead([...CREATE_HEAD, 'Transfer-Encoding: chunked']) + `1d;ext=${'a'.repeat(20_000)}\r\n${PET}\r\n0\r\n\r\n`,
      413,
      'payload_too_large',
    ],
    ['a malformed request line', requestHead(['GET /v1/pets FTP/1.1', 'Host: x', AUTH]), 400, 'invalid_request'],
    ['a PRI request line without a version (Node drops such a connection itself)', 'PRI /v1/pets\r\nHost: x\r\n\r\n', 400, 'invalid_request'],
    ['the HTTP/2 connection preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, 'invalid_request'],
    ['bytes that are not HTTP at all', 'THIS IS NOT HTTP\r\n\r\n', 400, 'invalid_request'],
    ['headers over the size limit', requestHead(['GET /v1/pets HTTP/1.1', 'Host: x', `X-Padding: ${'a'.repeat(20_000)}`]), 431, 'headers_too_large'],
  ])('answers %s with a JSON %i, stores nothing, logs nothing and closes', async (_, bytes, status, code) => {
    const errors: unknown[] = [];
    const server = await startServer({ onError: (error) => errors.push(error) });
    const connection = await rawConnect(server.url);
    connection.write(bytes);
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, status, code);
    expect(others).toEqual([]);
    expect(await (await server.api('/pets')).json()).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('requests Node parses but would not pass to the handler', () => {
  it('answers CONNECT with a JSON 405 that allows GET, HEAD, POST and OPTIONS, then closes: this is no proxy', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(requestHead(['CONNECT a:443 HTTP/1.1', 'Host: a:443']));
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 405, 'method_not_allowed');
    expect(response!.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(others).toEqual([]);
  });

  it('answers an Expect other than 100-continue with a JSON 417 and closes', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(requestHead(['GET /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Expect: foo']));
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 417, 'expectation_failed');
    expect(others).toEqual([]);
  });

  it('still sends 100 Continue for Expect: 100-continue and then creates the pet', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    const body = '{"name":"Rex","categoryId":1}';
    connection.write(
      requestHead(['POST /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Content-Type: application/json', `Content-Length: ${body.length}`, 'Expect: 100-continue']),
    );
    // The body goes out only after the interim answer, as a careful client does it.
    await connection.until(() => connection.received().includes('\r\n\r\n'));
    expect(connection.received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
    connection.write(body);
    await connection.until(() => connection.responses().length === 2);
    const [interim, created] = connection.responses();
    expect(interim!.status).toBe(100);
    expect(created!.status).toBe(201);
    expect(JSON.parse(created!.body)).toMatchObject({ name: 'Rex' });
    connection.socket.end();
  });

  it('answers an HTTP/1.1 request without Host with a JSON 400 and closes', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(requestHead(['GET /v1/pets HTTP/1.1', AUTH]));
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 400, 'invalid_request');
    expect(others).toEqual([]);
  });
});
