/** Closing a connection in stages (RFC 9112 §9.6), so a client still sending reads its answer instead of a TCP reset. */
import type { Server } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * How long a closing connection goes on reading and dropping what its client still sends, once
 * its last answer is out: until the client closes too, `idleMs` pass with nothing arriving, or
 * `maxMs` in all. Closing at once would answer those late bytes with a reset, and a client that
 * meets the reset while writing may lose the answer unread (a 413 to an upload, most often).
 */
export const LINGER = { idleMs: 500, maxMs: 2_000 } as const;

/** Writes `last`, half-closes, then reads and drops what still arrives for at most {@link LINGER}; then destroys the socket. */
export function endInStages(socket: Duplex, last = ''): void {
  if (!socket.writable) {
    if (!socket.writableEnded) socket.destroy();
    return;
  }
  const stop = () => socket.destroy();
  socket.end(last, (error?: Error | null) => {
    if (error || socket.readableEnded) return stop();
    socket.once('end', stop);
    const cap = setTimeout(stop, LINGER.maxMs);
    socket.once('close', () => clearTimeout(cap));
    // Read activity refreshes a socket's timeout, also while node:http's parser reads it natively.
    if (socket instanceof Socket) socket.setTimeout(LINGER.idleMs, stop);
    // A socket paused for backpressure would leave the late bytes unread.
    socket.resume();
  });
}

/** Makes every connection of `server` that node:http closes after an answer (`Connection: close`) close in stages. */
export function closeInStages(server: Server): void {
  server.on('connection', (socket: Socket) => {
    socket.destroySoon = () => endInStages(socket);
  });
}
