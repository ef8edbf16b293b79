/** Runs every example as a user would (node + the built package) so none of them can rot. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../test/redis/redis-server.ts';

const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill()));

/** Starts `node <file>` with env and resolves with the first stdout line matching `pattern`. */
async function runUntil(file: string, pattern: RegExp, env: Record<string, string> = {}): Promise<RegExpExecArray> {
  const child = spawn(process.execPath, [file], { env: { ...process.env, ...env } });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) resolve(match);
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`${file} exited with ${code} before printing ${pattern}:\n${output}`)));
  });
}

const auth = { authorization: 'Bearer demo-key', 'content-type': 'application/json' };

describe('examples', () => {
  it('node-serve: serves the API on its own server with the keys in PETSTORE_API_KEYS', async () => {
    const [, url] = await runUntil('examples/node-serve/index.js', /listening on (\S+)/, { PORT: '0', PETSTORE_API_KEYS: 'demo-key:free' });
    const created = await fetch(`${url}/pets`, { method: 'POST', headers: auth, body: '{"name":"Rex","categoryId":1}' });
    expect(created.status).toBe(201);
    expect(await (await fetch(`${url}/pets`, { headers: auth })).json()).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
  });

  it('node-serve: shuts down gracefully on SIGTERM with exit code 0', async () => {
    await runUntil('examples/node-serve/index.js', /listening on (\S+)/, { PORT: '0' });
    const child = children.at(-1)!;
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('node-embed: the Pet Store answers under /v1 and the host app everywhere else', async () => {
    const [, origin] = await runUntil('examples/node-embed/index.js', /listening on (\S+)/, { PORT: '0' });
    expect(await (await fetch(`${origin}/`)).text()).toBe('the rest of my app\n');
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(200);
  });

  it('in-process: creates and lists a pet with no network at all', async () => {
    const { stdout: output } = await promisify(execFile)(process.execPath, ['examples/in-process/index.js']);
    expect(output).toContain("201 { id: 1, name: 'Rex', categoryId: 1, status: 'available' }");
    expect(output).toContain("200 [ { id: 1, name: 'Rex', categoryId: 1, status: 'available' } ]");
  });

  describe('many-instances (on a real redis-server)', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    }, 30_000);
    afterAll(() => redis?.stop());

    it('serves pets kept in Redis, and exits 0 within seconds of SIGTERM, its Redis client closed', async () => {
      const env = { PORT: '0', REDIS_URL: redis.url, PETSTORE_API_KEYS: 'demo-key:free' };
      const [, url] = await runUntil('examples/many-instances/index.js', /listening on (\S+)/, env);
      const created = await fetch(`${url}/pets`, { method: 'POST', headers: auth, body: '{"name":"Rex","categoryId":1}' });
      expect(created.status).toBe(201);
      const child = children.at(-1)!;
      const exited = once(child, 'exit');
      const signalled = Date.now();
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(5_000);
    });
  });
});
