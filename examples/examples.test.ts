/** Runs every example as a user would (node + the built package) so none of them can rot. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../test/redis/redis-server.ts';
import { startPostgres, type TestPostgres } from '../test/sql/postgres-server.ts';

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

  describe('many-instances (on a real PostgreSQL and redis-server)', { tags: ['postgres', 'redis'] }, () => {
    let pg: TestPostgres;
    let redis: TestRedis;
    // Safety nets for a busy machine: pg_ctl start and stop each wait up to 60 s themselves.
    beforeAll(async () => {
      [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
    }, 120_000);
    afterAll(() => Promise.all([pg?.stop(), redis?.stop()]), 90_000);

    it('starts two instances sharing pets and one free quota, and exits 0 on SIGTERM with both instances gone', async () => {
      const env = { PORT: '0', DATABASE_URL: await pg.freshDatabase(), REDIS_URL: redis.url, PETSTORE_API_KEYS: 'demo-key:free' };
      const child = spawn(process.execPath, ['examples/many-instances/index.js'], { env: { ...process.env, ...env } });
      children.push(child);
      let output = '';
      child.stderr.on('data', (chunk) => (output += chunk));
      const urls = await new Promise<string[]>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const found = [...output.matchAll(/instance (\d+) listening on (\S+)/g)];
          if (found.length === 2) resolve(found.map((match) => match[2]!));
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
      });
      const pids = [...output.matchAll(/instance (\d+) listening/g)].map((match) => Number(match[1]));

      const firstMinute = Math.floor(Date.now() / 60_000);
      const created = await Promise.all(
        [0, 1, 0, 1].map((i, n) => fetch(`${urls[i]}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `ex${n}`, categoryId: n }) })),
      );
      expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      for (const url of urls) {
        const listed = await fetch(`${url}/pets`, { headers: auth });
        expect((await listed.json()).map((pet: { name: string }) => pet.name).sort()).toEqual(['ex0', 'ex1', 'ex2', 'ex3']);
      }
      // One free quota of 60 a minute across both: 4 creates, 2 lists and this one through either
      // instance leave 53, unless a new UTC minute began since the first (then its count restarted).
      const ratelimit = (await fetch(`${urls[0]}/pets`, { headers: auth })).headers.get('ratelimit') ?? '';
      const remaining = Number(/"minute";r=(\d+);/.exec(ratelimit)?.[1]);
      expect(remaining === 53 || Math.floor(Date.now() / 60_000) !== firstMinute).toBe(true);

      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      // It exits by itself (a process that ignored SIGTERM would fail the test on its timeout), with 0.
      expect((await exited)[0]).toBe(0);
      const alive = pids.filter((pid) => {
        try {
          return process.kill(pid, 0);
        } catch {
          return false;
        }
      });
      expect(alive).toEqual([]);
    }, 60_000);
  });
});
