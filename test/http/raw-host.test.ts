/** Request targets and Host on raw sockets: the target alone picks the route, and a bad Host or repeated field is a JSON 400. */
import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/operations/inputs.ts';
import { rawConnect, requestHead, expectRawError, type RawResponse } from '../helpers/raw-http.ts';
import { KEY, postPet, startServer, type TestServer } from '../helpers/server.ts';

/** Sends one request head on a fresh connection that the server is asked to close, and returns its one answer. */
async function exchange(server: TestServer, lines: readonly string[]): Promise<RawResponse> {
  const connection = await rawConnect(server.url);
  connection.write(requestHead([...lines, 'Connection: close']));
  const responses = await connection.untilClosed();
  expect(responses).toHaveLength(1);
  return responses[0]!;
}

const auth = `Authorization: Bearer ${KEY}`;

describe('request targets', () => {
  it('accepts an absolute-form target and routes on its path, whatever the Host says', async () => {
    const server = await startServer();
    const response = await exchange(server, ['GET http://pets.example/v1/pets HTTP/1.1', 'Host: other.example', auth]);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual([]);
  });

  it('answers OPTIONS * with 204 and the methods the server serves, without a key', async () => {
    const server = await startServer();
    const response = await exchange(server, ['OPTIONS * HTTP/1.1', 'Host: x']);
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(response.body).toBe('');
  });

  it.each(['GET * HTTP/1.1', 'GET pets HTTP/1.1', 'GET ftp://pets.example/v1/pets HTTP/1.1'])('answers "%s" with a JSON 400', async (requestLine) => {
    const server = await startServer();
    expectRawError(await exchange(server, [requestLine, 'Host: x', auth]), 400, 'invalid_request');
  });

  it.each(['/v1/./pets', '/v1/x/../pets', '/v1/x/%2E%2e/pets', '/v1/./pets?limit=1', '/elsewhere/../v1/pets'])(
    'resolves the dot segments of "%s" before routing, as a URL would',
    async (target) => {
      const server = await startServer();
      await postPet(server, { name: 'Rex', categoryId: 1 });
      const response = await exchange(server, [`GET ${target} HTTP/1.1`, 'Host: x', auth]);
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toMatchObject([{ name: 'Rex' }]);
    },
  );

  it('keeps a target such as //evil.example/v1/pets a path: it is outside the base path', async () => {
    const server = await startServer();
    const response = await exchange(server, ['GET //evil.example/v1/pets HTTP/1.1', 'Host: x', auth]);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('Host', () => {
  it.each(['a b', '[::1', 'h:1/v1/pets?', 'h:99999', 'user@h', 'h?x', 'h#x', 'h,j'])(
    'answers Host "%s" with a JSON 400 and never routes on it',
    async (host) => {
      const server = await startServer();
      expectRawError(await exchange(server, ['GET /elsewhere HTTP/1.1', `Host: ${host}`, auth]), 400, 'invalid_request');
      expect(await (await server.api('/pets')).json()).toEqual([]);
    },
  );

  it('answers two Host lines with a JSON 400 (RFC 9112 §3.2)', async () => {
    const server = await startServer();
    const error = expectRawError(await exchange(server, ['GET /v1/pets HTTP/1.1', 'Host: a.example', 'Host: b.example', auth]), 400, 'invalid_request');
    expect(error.message).toBe('Send the Host header once.');
  });

  it('answers an HTTP/1.1 request without Host with a JSON 400, and serves HTTP/1.0 without one', async () => {
    const server = await startServer();
    expectRawError(await exchange(server, ['GET /v1/pets HTTP/1.1', auth]), 400, 'invalid_request');
    expect((await exchange(server, ['GET /v1/pets HTTP/1.0', auth])).status).toBe(200);
  });

  it('writes next links without the Host a client chose', async () => {
    const server = await startServer();
    for (let i = 0; i < 2; i++) await postPet(server, { name: 'Rex', categoryId: 1 });
    const response = await exchange(server, ['GET /v1/pets?limit=1 HTTP/1.1', 'Host: evil.example', auth]);
    expect(response.headers.link).toBe(`</v1/pets?limit=1&cursor=${encodeCursor(1)}>; rel="next"`);
  });
});

describe('repeated and dropped header lines', () => {
  it('answers two Authorization lines with a JSON 400 instead of picking one', async () => {
    const server = await startServer();
    const lines = ['GET /v1/pets HTTP/1.1', 'Host: x', 'Authorization: Bearer wrong-key', auth];
    const error = expectRawError(await exchange(server, lines), 400, 'invalid_request');
    expect(error.message).toBe('Send the Authorization header once.');
  });

  it('answers two Content-Type lines on a create with a JSON 400 and stores nothing', async () => {
    const server = await startServer();
    const body = '{"name":"Rex","categoryId":1}';
    const lines = ['POST /v1/pets HTTP/1.1', 'Host: x', auth, 'Content-Type: application/json', 'Content-Type: text/plain', `Content-Length: ${body.length}`];
    const connection = await rawConnect(server.url);
    connection.write(requestHead([...lines, 'Connection: close']) + body);
    expectRawError((await connection.untilClosed())[0], 400, 'invalid_request');
    expect(await (await server.api('/pets')).json()).toEqual([]);
  });

  it('answers 2,100 header lines with a JSON 431 instead of judging the request without the Authorization Node dropped', async () => {
    // Node 20 hands over the first ~1,000 lines (the edge refuses them); Node 24 refuses the size itself.
    const server = await startServer();
    const padding = Array.from({ length: 2100 }, () => 'X-Empty:');
    expectRawError(await exchange(server, ['GET /v1/pets HTTP/1.1', 'Host: x', ...padding, auth]), 431, 'headers_too_large');
  });
});
