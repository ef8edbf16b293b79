/** /healthz and /readyz over raw sockets: a request that declares a body gets its JSON 413 at once, and the connection closes instead of reading the body. */
import { describe, expect, it } from 'vitest';
import { expectRawError, rawConnect, requestHead } from '../helpers/raw-http.ts';
import { startServer } from '../helpers/server.ts';

/** Sends `head`, then 64 KiB chunks until the server answers; what it answered (the server hangs up after) and how many body bytes went out. */
async function sendEndlessBody(url: string, head: string, chunked: boolean) {
  const connection = await rawConnect(url);
  connection.write(head);
  const chunk = 'x'.repeat(64 * 1024);
  let written = 0;
  const pump = setInterval(() => {
    // Stops once answered, as a client does; the server reads and drops what is still in flight
    // while it closes (test/http/staged-close.test.ts), so no TCP reset races the answer.
    if (connection.received() !== '') return clearInterval(pump);
    connection.write(chunked ? `${chunk.length.toString(16)}\r\n${chunk}\r\n` : chunk);
    written += chunk.length;
  }, 2);
  const responses = await connection.untilClosed();
  clearInterval(pump);
  return { responses, written };
}

describe('a body sent to the probes', () => {
  for (const path of ['/healthz', '/readyz']) {
    it(`answers GET ${path} declaring a 1 GB body with a JSON 413 and closes the connection, having read next to none of it`, async () => {
      const server = await startServer();
      const head = requestHead([`GET ${path} HTTP/1.1`, 'Host: x', 'Content-Length: 1000000000']);
      const { responses, written } = await sendEndlessBody(server.url, head, false);
      expect(responses).toHaveLength(1);
      expectRawError(responses[0], 413, 'payload_too_large');
      expect(responses[0]!.headers.connection).toBe('close');
      expect(JSON.parse(responses[0]!.body).message).toBe(`${path} takes no request body; send the request without one.`);
      // The server hung up long before the body was whole (counted, not timed).
      expect(written).toBeLessThan(100_000_000);
    });
  }

  it('answers POST /readyz with an endless chunked body with a JSON 413, and keeps serving others', async () => {
    const server = await startServer();
    const head = requestHead(['POST /readyz HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked']);
    const { responses } = await sendEndlessBody(server.url, head, true);
    expect(responses).toHaveLength(1);
    expectRawError(responses[0], 413, 'payload_too_large');
    const health = await fetch(new URL('/healthz', server.url));
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
  });
});
