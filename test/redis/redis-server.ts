/** A real redis-server for the tests (REDIS_SERVER, else the one on PATH): own port, own temp dir, append-only file, started and stopped at will. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.ts';
import { redisServerPath, requirePart } from '../helpers/system-parts.ts';

/** A redis-server process; `stop()` then `start()` restarts it on the same port and data. */
export interface TestRedis {
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts redis-server, or fails saying how to install it. */
export async function startRedis(): Promise<TestRedis> {
  requirePart('redis');
  const binary = redisServerPath()!;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  let child: ChildProcess | undefined;
  const redis: TestRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      // appendfsync always: whatever Redis acknowledged survives a restart, as the outage test needs.
      child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const started = child;
      // Waits on its output and its exit, not on a clock: the hook's timeout is the safety net.
      await new Promise<void>((resolve, reject) => {
        let output = '';
        started.stdout!.on('data', (chunk) => {
          output += chunk;
          if (output.includes('Ready to accept connections')) resolve();
        });
        started.once('exit', () => reject(new Error(`redis-server did not start:\n${output}`)));
      });
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
  await redis.start();
  return redis;
}
