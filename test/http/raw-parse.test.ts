/** Requests node:http cannot parse or will not pass on, on raw sockets: each gets a JSON Error, then the connection closes. */
import { describe, expect, it } from 'vitest';
import { expectRawError, rawConnect, requestHead } from '../helpers/raw-http.ts';
import { KEY, startServer } from '../helpers/server.ts';

const AUTH = `Authorization: Bearer ${KEY}`;

describe('requests Node cannot parse', () => {
  it('answers a chunked body with a garbage chunk size with a JSON 400, stores nothing and closes', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ onError: (error) => errors.push(error) });
    const connection = await rawConnect(server.url);
    connection.write(
      requestHead(['POST /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Content-Type: application/json', 'Transfer-Encoding: chunked']) + 'zz\r\n',
    );
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 400, 'invalid_request');
    expect(others).toEqual([]);
    expect(await (await server.api('/pets')).json()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('answers Transfer-Encoding: identity with a JSON 400 and closes', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(
      requestHead(['POST /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Content-Type: application/json', 'Transfer-Encoding: identity']) +
        '{"name":"Rex","categoryId":1}',
    );
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 400, 'invalid_request');
    expect(others).toEqual([]);
    expect(await (await server.api('/pets')).json()).toEqual([]);
  });

  it('answers a request with both Content-Length and Transfer-Encoding with a JSON 400, stores nothing and closes', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(
      requestHead(['POST /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Content-Type: application/json', 'Content-Length: 35', 'Transfer-Encoding: chunked']) +
        '1d\r\n{"name":"Rex","categoryId":1}\r\n0\r\n\r\n',
    );
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 400, 'invalid_request');
    expect(others).toEqual([]);
    expect(await (await server.api('/pets')).json()).toEqual([]);
  });

  it('answers chunk extensions over Node\'s limit with a JSON 413, stores nothing and closes', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(
      requestHead(['POST /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Content-Type: application/json', 'Transfer-Encoding: chunked']) +
        `1d;ext=${'a'.repeat(20_000)}\r\n{"name":"Rex","categoryId":1}\r\n0\r\n\r\n`,
    );
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 413, 'payload_too_large');
    expect(others).toEqual([]);
    expect(await (await server.api('/pets')).json()).toEqual([]);
  });

  it('answers a malformed request line with a JSON 400 and closes', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(requestHead(['GET /v1/pets FTP/1.1', 'Host: x', AUTH]));
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 400, 'invalid_request');
    expect(others).toEqual([]);
  });

  it.each([
    ['a PRI request line without a version', 'PRI /v1/pets HTTP\r\nHost: x\r\n\r\n'.replace(' HTTP', '')],
    ['the HTTP/2 connection preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  ])('answers %s with a JSON 400 before Node drops the connection', async (_, bytes) => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(bytes);
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 400, 'invalid_request');
    expect(others).toEqual([]);
  });

  it('answers bytes that are not HTTP at all with a JSON 400, not an empty reply', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write('THIS IS NOT HTTP\r\n\r\n');
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 400, 'invalid_request');
    expect(others).toEqual([]);
  });

  it('answers headers over the size limit with a JSON 431 and closes', async () => {
    const server = await startServer();
    const connection = await rawConnect(server.url);
    connection.write(requestHead(['GET /v1/pets HTTP/1.1', 'Host: x', `X-Padding: ${'a'.repeat(20_000)}`]));
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 431, 'headers_too_large');
    expect(others).toEqual([]);
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
