/** Broken, slow and hostile clients on raw sockets: the real Node server answers, cuts off and moves on. */
import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { expectError, KEY, startServer, type TestServer } from '../helpers/server.ts';

/** A raw TCP connection to the test server that collects what the server sends. */
async function rawSocket(server: TestServer) {
  const { hostname, port } = new URL(server.url);
  const socket: Socket = connect(Number(port), hostname);
  socket.on('error', () => {}); // writes after the server hung up fail with EPIPE; that is the point
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed, received: () => received };
}

/** Status line and parsed JSON body of a raw HTTP/1.1 response. */
function parseResponse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) as { code: string; status: number } };
}

const head = (lines: string[]) => lines.join('\r\n') + '\r\n\r\n';

describe('raw sockets against the Node server', () => {
  it('cuts off a chunked body that never ends at maxBodyBytes with 413 and closes the connection', async () => {
    const server = await startServer({ maxBodyBytes: 4096 });
    const { socket, closed, received } = await rawSocket(server);
    socket.write(
      head(['POST /v1/pets HTTP/1.1', 'Host: x', `Authorization: Bearer ${KEY}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked']),
    );
    const chunk = '{"name":"' + 'x'.repeat(1000);
    let written = 0;
    const pump = setInterval(() => {
      if (!socket.destroyed) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      written += chunk.length;
    }, 2);
    await closed;
    clearInterval(pump);
    const response = parseResponse(received());
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(written).toBeLessThan(10_000_000);
    expect(await (await server.api('/pets')).json()).toEqual([]);
  });

  it('answers 408 request_timeout to a client that sends half its headers and stalls, while serving others', async () => {
    const server = await startServer({ headersTimeoutMs: 500 });
    const { socket, closed, received } = await rawSocket(server);
    socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    expect((await server.api('/pets')).status).toBe(200);
    await closed;
    expect(parseResponse(received())).toMatchObject({ status: 408, body: { code: 'request_timeout', status: 408 } });
  });

  it('survives a client that disconnects mid-body: nothing stored, nothing logged, next request served', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ onError: (error) => errors.push(error) });
    const { socket } = await rawSocket(server);
    socket.write(
      head(['POST /v1/pets HTTP/1.1', 'Host: x', `Authorization: Bearer ${KEY}`, 'Content-Type: application/json', 'Content-Length: 100']) +
        '{"name":"Re',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await (await server.api('/pets')).json()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('answers malformed HTTP with a JSON 400, not an empty reply', async () => {
    const server = await startServer();
    const { socket, closed, received } = await rawSocket(server);
    socket.write('THIS IS NOT HTTP\r\n\r\n');
    await closed;
    expect(parseResponse(received())).toMatchObject({ status: 400, body: { code: 'invalid_request', status: 400 } });
  });

  it('answers oversized headers with a JSON 431', async () => {
    const server = await startServer();
    const { socket, closed, received } = await rawSocket(server);
    socket.write(head(['GET /v1/pets HTTP/1.1', 'Host: x', `X-Padding: ${'a'.repeat(20_000)}`]));
    await closed;
    expect(parseResponse(received())).toMatchObject({ status: 431, body: { code: 'headers_too_large', status: 431 } });
  });

  it('keeps answering with 1,000 idle connections open, then closes every one of them', async () => {
    // Opening 1,000 sockets takes a while here; the header deadline must outlast that.
    const server = await startServer({ headersTimeoutMs: 2_000, keepAliveTimeoutMs: 300 });
    const idle = await Promise.all(Array.from({ length: 1000 }, () => rawSocket(server)));
    // Half of them go idle after one keep-alive request, half never send a byte.
    for (const { socket } of idle.slice(0, 500)) {
      socket.write(head(['GET /v1/pets HTTP/1.1', 'Host: x', `Authorization: Bearer ${KEY}`]));
    }
    const started = Date.now();
    await expectError(await fetch(`${server.url}/nope`), 401, 'unauthorized');
    expect((await server.api('/pets')).status).toBe(200);
    await Promise.all(idle.map(({ closed }) => closed));
    expect(Date.now() - started).toBeLessThan(8_000);
    const open = () => new Promise<number>((resolve, reject) => server.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
    // The server side lets go of each socket as its peer's FIN arrives: soon, and all of them.
    await vi.waitFor(async () => expect(await open()).toBeLessThanOrEqual(1), { timeout: 3_000, interval: 50 });
    const firstLines = idle.slice(0, 500).map(({ received }) => received().split('\r\n')[0]);
    expect(new Set(firstLines)).toEqual(new Set(['HTTP/1.1 200 OK']));
  });
});
