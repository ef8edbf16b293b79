/** Slow, stalled, endless and idle clients on raw sockets: each gets its JSON Error at its deadline or cap, and the server moves on. */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { expectRawError, rawConnect, requestHead } from '../helpers/raw-http.ts';
import { expectError, KEY, startServer } from '../helpers/server.ts';

const AUTH = `Authorization: Bearer ${KEY}`;
const postHead = (...lines: string[]) => requestHead(['POST /v1/pets HTTP/1.1', 'Host: x', AUTH, 'Content-Type: application/json', ...lines]);

describe('clients that are slow or never finish', () => {
  it('answers a body dripping one byte per 100 ms with a JSON 408 at the request deadline, stores nothing and closes', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ requestTimeoutMs: 1_000, onError: (error) => errors.push(error) });
    const connection = await rawConnect(server.url);
    const body = `{"name":"${'x'.repeat(100)}","categoryId":1}`;
    connection.write(postHead(`Content-Length: ${body.length}`));
    let sent = 0;
    const drip = setInterval(() => connection.write(body[sent++] ?? ''), 100);
    const [response, ...others] = await connection.untilClosed();
    clearInterval(drip);
    expectRawError(response, 408, 'request_timeout');
    expect(others).toEqual([]);
    // The answer came before the body was whole: the deadline ended it, not the client. (Counted, not timed.)
    expect(sent).toBeLessThan(body.length);
    expect(await (await server.api('/pets')).json()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('answers 408 request_timeout to a client that sends half its headers and stalls, while serving others', async () => {
    const server = await startServer({ headersTimeoutMs: 500 });
    const connection = await rawConnect(server.url);
    connection.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    expect((await server.api('/pets')).status).toBe(200);
    const [response, ...others] = await connection.untilClosed();
    expectRawError(response, 408, 'request_timeout');
    expect(others).toEqual([]);
  });

  it('cuts off a chunked body that never ends at maxBodyBytes with 413 and closes the connection', async () => {
    const server = await startServer({ maxBodyBytes: 4096 });
    const connection = await rawConnect(server.url);
    connection.write(postHead('Transfer-Encoding: chunked'));
    const chunk = '{"name":"' + 'x'.repeat(1000);
    let written = 0;
    const pump = setInterval(() => {
      connection.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      written += chunk.length;
    }, 2);
    await connection.closed;
    clearInterval(pump);
    const [response] = connection.responses();
    expectRawError(response, 413, 'payload_too_large');
    expect(written).toBeLessThan(10_000_000);
    expect(await (await server.api('/pets')).json()).toEqual([]);
  });

  it('survives a client that disconnects mid-body: nothing stored, nothing logged, next request served', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ onError: (error) => errors.push(error) });
    const connection = await rawConnect(server.url);
    const requested = once(server.server, 'request') as Promise<[IncomingMessage, ServerResponse]>;
    connection.write(postHead('Content-Length: 100') + '{"name":"Re');
    const [, response] = await requested;
    connection.socket.destroy();
    if (!response.closed) await once(response, 'close');
    expect(await (await server.api('/pets')).json()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps answering with 1,000 idle connections open, then closes every one of them', async () => {
    // Opening 1,000 sockets takes a while here; the header deadline must outlast that.
    const server = await startServer({ headersTimeoutMs: 2_000, keepAliveTimeoutMs: 300 });
    const idle = await Promise.all(Array.from({ length: 1000 }, () => rawConnect(server.url)));
    // Half of them go idle after one keep-alive request, half never send a byte.
    for (const connection of idle.slice(0, 500)) connection.write(requestHead(['GET /v1/pets HTTP/1.1', 'Host: x', AUTH]));
    await expectError(await fetch(`${server.url}/nope`), 401, 'unauthorized');
    expect((await server.api('/pets')).status).toBe(200);
    // Every one is closed by the server's deadlines; one left open fails the test on its timeout.
    await Promise.all(idle.map(({ closed }) => closed));
    const open = () => new Promise<number>((resolve, reject) => server.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
    // The server side lets go of each socket as its peer's FIN arrives: all of them (the wait is a safety net for a busy machine).
    await vi.waitFor(async () => expect(await open()).toBeLessThanOrEqual(1), { timeout: 20_000, interval: 50 });
    const firstLines = idle.slice(0, 500).map((connection) => connection.received().split('\r\n')[0]);
    expect(new Set(firstLines)).toEqual(new Set(['HTTP/1.1 200 OK']));
  }, 60_000);
});
