/** A client still sending when refused reads its answer: serve() closes such connections in stages, not with a TCP reset. */
import { describe, expect, it } from 'vitest';
import { expectRawError, rawConnect, requestHead } from '../helpers/raw-http.ts';
import { KEY, startServer } from '../helpers/server.ts';

const CHUNK = 'x'.repeat(64 * 1024);

/**
 * Sends `head`, then `CHUNK` after `CHUNK` as fast as the socket takes them (`until: 'answered'`:
 * until any byte of an answer arrives, as a browser uploading does; `'closed'`: on past the
 * server's FIN, until the connection is gone).
 * Resolves with what came back once the connection is closed.
 */
async function upload(origin: string, head: string, until: 'answered' | 'closed') {
  const connection = await rawConnect(origin, { allowHalfOpen: until === 'closed' });
  connection.write(head);
  const send = () => {
    if (connection.socket.destroyed || (until === 'answered' && connection.received() !== '')) return;
    connection.write(CHUNK);
    setImmediate(send);
  };
  send();
  await connection.closed;
  return connection.responses();
}

const oversizedPost = requestHead([
  'POST /v1/pets HTTP/1.1',
  'Host: x',
  `Authorization: Bearer ${KEY}`,
  'Content-Type: application/json',
  'Content-Length: 1000000000',
]);

/** The uploads refused while they arrive: what each sends first, and the Error it must still read. */
const REFUSED: [string, string, number, string][] = [
  ['uploading 1 GB to POST /pets read its JSON 413 with Connection: close', oversizedPost, 413, 'payload_too_large'],
  [
    'uploading to /healthz, which reads no body, read its JSON 413',
    requestHead(['GET /healthz HTTP/1.1', 'Host: x', 'Content-Length: 1000000000']),
    413,
    'payload_too_large',
  ],
  [
    // "xx…" where a chunk size belongs: the parser fails on the first chunk, and the rest keeps coming.
    'whose chunked upload breaks off into bad framing read its JSON 400',
    requestHead(['POST /v1/pets HTTP/1.1', 'Host: x', `Authorization: Bearer ${KEY}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked']),
    400,
    'invalid_request',
  ],
];

describe('serve() closing a connection on a client still sending', () => {
  it.each(REFUSED)('lets each of 20 clients %s', async (_title, head, status, code) => {
    const server = await startServer();
    const origin = new URL(server.url).origin;
    for (let i = 0; i < 20; i++) {
      const responses = await upload(origin, head, 'answered');
      expect(responses).toHaveLength(1);
      expectRawError(responses[0], status, code);
    }
  });

  it('still closes the connection of a client that never stops sending, having answered it', async () => {
    const server = await startServer();
    const responses = await upload(new URL(server.url).origin, oversizedPost, 'closed');
    expect(responses).toHaveLength(1);
    expectRawError(responses[0], 413, 'payload_too_large');
  });
});
