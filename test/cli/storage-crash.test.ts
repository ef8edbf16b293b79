/**
 * What `petstore-service --data <dir>` must keep through kill -9, however it batches its writes
 * (#28): a pet whose 201 arrived, and every request answered counted in its day's quota.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/index.js');
/** Creates pets; quota to spare. */
const WRITER = 'crash-writer-key';
/** Three requests a day. */
const SPARING = 'crash-sparing-key';
/** A thousand requests a day, for a stream of them. */
const STREAMING = 'crash-streaming-key';
const KEYS = ['--key', `${WRITER}:enterprise:1000000:1000000`, '--key', `${SPARING}:enterprise:1000000:3`, '--key', `${STREAMING}:enterprise:1000000:1000`];
/** A first start on an empty directory runs PGlite's initdb: seconds, more on a busy machine. */
const PGLITE_TIMEOUT_MS = 120_000;

const children: ChildProcess[] = [];
const directories: string[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));
afterAll(() => directories.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The command on `dir`, once it listens: its base URL, and a kill -9 that resolves once the process is gone. */
async function start(dir: string) {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet', '--data', dir, ...KEYS], {
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = once(child, 'exit');
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  let url: string | undefined;
  while (!(url = /listening on (\S+)\n/.exec(output)?.[1])) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${output}`);
    await Promise.race([once(child.stdout!, 'data'), exited]);
  }
  const killHard = async () => {
    child.kill('SIGKILL');
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');
  };
  return { url, killHard };
}

const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const list = (url: string, key: string) => fetch(`${url}/pets?limit=100`, { headers: headers(key) });
/** What the day window has left, from `RateLimit: "minute";r=…;t=…, "day";r=…;t=…`. */
const dayRemaining = (response: Response) => Number(/"day";r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]);

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-crash-'));
  directories.push(dir);
  return dir;
}

describe('petstore-service --data through kill -9', () => {
  it(
    'keeps the pet whose 201 arrived just before the kill, and the day quota spent just before another',
    async () => {
      const dir = tempDir();
      const first = await start(dir);
      const created = await fetch(`${first.url}/pets`, { method: 'POST', headers: headers(WRITER), body: JSON.stringify({ name: 'Rex', categoryId: 7 }) });
      expect(created.status).toBe(201);
      const pet = await created.json();
      await first.killHard();

      const second = await start(dir);
      const got = await fetch(`${second.url}/pets/${pet.id}`, { headers: headers(WRITER) });
      expect(got.status).toBe(200);
      expect(await got.json()).toEqual({ id: pet.id, name: 'Rex', categoryId: 7 });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await list(second.url, SPARING)).status);
      expect(statuses).toEqual([200, 200, 200]);
      await second.killHard();

      const third = await start(dir);
      const refused = await list(third.url, SPARING);
      expect(refused.status).toBe(429);
      expect(dayRemaining(refused)).toBe(0);
      expect((await list(third.url, WRITER)).status).toBe(200);
    },
    PGLITE_TIMEOUT_MS,
  );

  it(
    'counts every request answered before a kill -9 amid 8 clients listing and creating, and keeps every pet acknowledged',
    async () => {
      const dir = tempDir();
      const first = await start(dir);
      let answered = 0;
      const acknowledged: { id: number; name: string }[] = [];
      let killing: Promise<void> | undefined;
      const client = async (c: number) => {
        for (let i = 0; !killing; i++) {
          try {
            if (i % 2) {
              const response = await list(first.url, STREAMING);
              if (response.status === 200) answered++;
            } else {
              const body = JSON.stringify({ name: `pet ${c}-${i}`, categoryId: c });
              const response = await fetch(`${first.url}/pets`, { method: 'POST', headers: headers(STREAMING), body });
              if (response.status === 201) {
                answered++;
                acknowledged.push(await response.json());
              }
            }
          } catch {
            return; // the server died under this request
          }
          if (answered >= 200) killing ??= first.killHard();
        }
      };
      await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
      await killing;

      const second = await start(dir);
      const response = await list(second.url, WRITER);
      expect(response.status).toBe(200);
      const stored = new Map<number, string>();
      for (let next: string | undefined = `${second.url}/pets?limit=100`; next; ) {
        const page: Response = await fetch(next, { headers: headers(WRITER) });
        for (const pet of (await page.json()) as { id: number; name: string }[]) stored.set(pet.id, pet.name);
        const link = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
        next = link && new URL(link, second.url).href;
      }
      expect(acknowledged.filter((pet) => stored.get(pet.id) !== pet.name)).toEqual([]);
      // This request is counted too: the day has at most 1000 - answered - 1 left.
      const after = await list(second.url, STREAMING);
      expect(after.status).toBe(200);
      expect(dayRemaining(after)).toBeLessThanOrEqual(1000 - answered - 1);
    },
    PGLITE_TIMEOUT_MS,
  );
});
