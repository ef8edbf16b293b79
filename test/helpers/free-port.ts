/** A TCP port on 127.0.0.1 that nothing listens on, for a throwaway server (Redis, PostgreSQL) a test starts. */
import { once } from 'node:events';
import { createServer } from 'node:net';

/** Asks the kernel for a free port and gives it back; the caller binds it next. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}
