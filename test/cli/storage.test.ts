/**
 * The petstore-service command (built) on real stores: PGlite in a directory across kill -9, a real
 * redis-server across restarts, and one line on stderr with exit code 2 for every store that cannot
 * be reached or opened. Each server is a child process, as a user runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../redis/redis-server.ts';

const CLI = resolve('dist/cli/index.js');
const KEY = 'storage-test-key';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
/** Enough quota for a stream of creates. */
const KEY_ARGS = ['--key', `${KEY}:enterprise:1000000:1000000`];
/** A first start on an empty directory runs PGlite's initdb: seconds, more on a busy machine. */
const PGLITE_TIMEOUT_MS = 90_000;

interface Pet {
  id: number;
  name: string;
  categoryId: number;
}

const children: ChildProcess[] = [];
const directories: string[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));
afterAll(() => directories.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'));
  directories.push(dir);
  return dir;
}

/** The command as a child process: what it prints, when it listens, and how it exits. */
function start(args: string[], env: Record<string, string> = {}, cli = CLI) {
  // DATABASE_URL and REDIS_URL of the machine running the tests must not choose the store (empty is unset).
  const child = spawn(process.execPath, [cli, '--port', '0', ...args], { env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...env } });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as string | null, stdout, stderr }));
  const listening = new Promise<{ url: string; stdout: string }>((resolvePromise, reject) => {
    child.stdout.on('data', () => {
      const url = /listening on (\S+)\n/.exec(stdout)?.[1];
      if (url && stdout.split('\n').length > 3) resolvePromise({ url, stdout });
    });
    void exited.then(({ code }) => reject(new Error(`exited with ${code}: ${stdout}${stderr}`)));
  });
  listening.catch(() => {}); // tests that expect an exit never await it
  return { child, listening, exited };
}

/** SIGKILL, as `kill -9` does, and the exit seen (so its pid is gone before a restart). */
async function killHard(server: ReturnType<typeof start>): Promise<void> {
  server.child.kill('SIGKILL');
  expect((await server.exited).signal).toBe('SIGKILL');
}

async function create(url: string, pet: Omit<Pet, 'id'>): Promise<Response> {
  return fetch(`${url}/pets`, { method: 'POST', headers: auth, body: JSON.stringify(pet) });
}

/** Every pet, page by page along the `rel="next"` links. */
async function listAll(url: string): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let next: string | undefined = `${url}/pets?limit=100`; next; ) {
    const response: Response = await fetch(next, { headers: auth });
    expect(response.status).toBe(200);
    pets.push(...((await response.json()) as Pet[]));
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return pets;
}

/** One line on stderr, nothing on stdout, exit code 2. */
function expectOneLineExit2(result: { code: number | null; stdout: string; stderr: string }, line: string): void {
  expect(result).toEqual({ code: 2, signal: null, stdout: '', stderr: `petstore-service: ${line}\n` });
}

describe('petstore-service --data <dir> (PGlite)', () => {
  it(
    'lists the same 3 pets after a kill -9 and a restart on the directory, and the next create gets id 4',
    async () => {
      const dir = join(tempDir(), 'd'); // created by the command
      const first = start([...KEY_ARGS, '--data', dir]);
      const { url, stdout } = await first.listening;
      expect(stdout).toContain(`\nPets and limits: PGlite in ${dir}\n`);
      const created: Pet[] = [];
      for (const name of ['Rex', 'Tom', 'Kit']) {
        const response = await create(url, { name, categoryId: 1 });
        expect(response.status).toBe(201);
        created.push((await response.json()) as Pet);
      }
      expect(created.map((pet) => pet.id)).toEqual([1, 2, 3]);
      await killHard(first);

      const second = start([...KEY_ARGS, '--data', dir]);
      const restarted = await second.listening;
      expect(await listAll(restarted.url)).toEqual(created);
      const fourth = await create(restarted.url, { name: 'Max', categoryId: 2 });
      expect(fourth.status).toBe(201);
      expect(await fourth.json()).toEqual({ id: 4, name: 'Max', categoryId: 2 });
    },
    PGLITE_TIMEOUT_MS,
  );

  it(
    'keeps every pet whose 201 arrived when killed with -9 in the middle of a stream of creates: ids 1..n, each pet whole, none twice',
    async () => {
      const dir = tempDir();
      const first = start([...KEY_ARGS, '--data', dir]);
      const { url } = await first.listening;
      const sent = new Map<string, Omit<Pet, 'id'>>();
      const acknowledged: Pet[] = [];
      const statuses: number[] = [];
      let cutOff = 0;
      let killed = false;
      // 8 clients, each creating pets one after another until the server dies under them.
      const client = async (c: number) => {
        for (let i = 0; !killed; i++) {
          const pet = { name: `pet ${c}-${i}`, categoryId: c * 10_000 + i };
          sent.set(pet.name, pet);
          const answered = create(url, pet);
          // Killed right after a create is sent, so at least that one is in flight: killing on a 201
          // instead found none in flight when one group commit had answered them all at once.
          if (acknowledged.length >= 60 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
          try {
            const response = await answered;
            statuses.push(response.status);
            acknowledged.push((await response.json()) as Pet);
          } catch {
            cutOff++; // no 201 arrived whole: the request, or its answer, died with the server
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
      expect((await first.exited).signal).toBe('SIGKILL');
      expect(statuses.every((status) => status === 201)).toBe(true);
      // Mid-stream: other clients' creates were in flight when it died.
      expect(cutOff).toBeGreaterThan(0);

      const second = start([...KEY_ARGS, '--data', dir]);
      const pets = await listAll((await second.listening).url);
      const ids = pets.map((pet) => pet.id);
      expect(ids).toEqual(Array.from({ length: pets.length }, (_, i) => i + 1));
      // A create in flight may have committed without its 201 getting out; never one that was not sent.
      expect(pets.length).toBeGreaterThanOrEqual(acknowledged.length);
      expect(pets.length).toBeLessThanOrEqual(sent.size);
      for (const pet of acknowledged) expect(pets[pet.id - 1]).toEqual(pet);
      for (const pet of pets) expect(pet).toEqual({ id: pet.id, ...sent.get(pet.name) });
      expect(new Set(pets.map((pet) => pet.name)).size).toBe(pets.length);
      console.info(`kill -9 after ${acknowledged.length} creates answered 201, ${cutOff} cut off: ${pets.length} pets after the restart`);
    },
    PGLITE_TIMEOUT_MS,
  );

  it(
    'exits 0 on SIGTERM, leaves no lock behind, and a second server on the directory meanwhile is refused with exit code 2',
    async () => {
      const dir = tempDir();
      const first = start([...KEY_ARGS, '--data', dir]);
      await first.listening;
      const lock = join(dir, 'petstore-service.lock');
      expect(readFileSync(lock, 'utf8')).toBe(`${first.child.pid}\n`);

      const second = await start([...KEY_ARGS, '--data', dir]).exited;
      expectOneLineExit2(second, `--data ${dir} is in use by process ${first.child.pid}; stop it first (if none runs there, delete ${lock})`);

      first.child.kill('SIGTERM');
      expect((await first.exited).code).toBe(0);
      expect(existsSync(lock)).toBe(false);
      const third = start([...KEY_ARGS, '--data', dir]);
      await expect(third.listening).resolves.toMatchObject({ url: expect.stringMatching(/^http:\/\//) });
    },
    PGLITE_TIMEOUT_MS,
  );

  it('refuses a directory that holds other files, and one that is a file, with one line and exit code 2, leaving them as they were', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expectOneLineExit2(await start(['--data', dir]).exited, `--data ${dir} is neither empty nor a PGlite database; name a new or empty directory`);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
    const file = join(dir, 'notes.txt');
    expectOneLineExit2(await start(['--data', file]).exited, `cannot use --data ${file}: it is a file, not a directory; name a new or empty directory`);
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });

  it('refuses --data together with --database-url, in one line with exit code 2', async () => {
    const result = await start(['--data', tempDir(), '--database-url', 'postgres://petstore@127.0.0.1:1/petstore']).exited;
    expectOneLineExit2(result, '--data and --database-url cannot be used together: pick PGlite in a directory or a PostgreSQL server; see --help');
  });
});

describe('petstore-service --database-url <url> / DATABASE_URL (PostgreSQL): what cannot be reached', () => {
  it.each<[string, string[], Record<string, string>]>([
    ['--database-url', ['--database-url', 'postgres://nobody@127.0.0.1:1/x'], {}],
    ['DATABASE_URL', [], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/x' }],
  ])('says in one line that nothing answers at 127.0.0.1:1 (from %s), and exits 2', async (_, args, env) => {
    expectOneLineExit2(await start(args, env).exited, 'cannot connect to PostgreSQL at 127.0.0.1:1: connection refused');
  });

  it('names host and port, never the user or password, of a URL that holds them', async () => {
    const result = await start(['--database-url', 'postgres://topuser:topsecret@127.0.0.1:1/petstore']).exited;
    expectOneLineExit2(result, 'cannot connect to PostgreSQL at 127.0.0.1:1: connection refused');
  });

  it('names a host that does not resolve', async () => {
    expectOneLineExit2(
      await start(['--database-url', 'postgres://petstore@no.such.host.invalid/petstore']).exited,
      'cannot connect to PostgreSQL at no.such.host.invalid:5432: no such host',
    );
  });
});

describe('petstore-service: URLs that are not URLs of the store', () => {
  it.each<[string, string[], Record<string, string>, string]>([
    ['--database-url not-a-url', ['--database-url', 'not-a-url'], {}, '--database-url must be a URL like postgres://user:password@host:5432/database'],
    [
      '--database-url http://…',
      ['--database-url', 'http://user:topsecret@127.0.0.1/x'],
      {},
      '--database-url must be a URL like postgres://user:password@host:5432/database',
    ],
    [
      '--database-url with port 99999',
      ['--database-url', 'postgres://u:topsecret@127.0.0.1:99999/x'],
      {},
      '--database-url must be a URL like postgres://user:password@host:5432/database',
    ],
    ['DATABASE_URL=not-a-url', [], { DATABASE_URL: 'not-a-url' }, 'DATABASE_URL must be a URL like postgres://user:password@host:5432/database'],
    ['--redis not-a-url', ['--redis', 'not-a-url'], {}, '--redis must be a URL like redis://:password@host:6379'],
    ['REDIS_URL=postgres://…', [], { REDIS_URL: 'postgres://u:topsecret@127.0.0.1/x' }, 'REDIS_URL must be a URL like redis://:password@host:6379'],
    ['--data with an empty value', ['--data='], {}, '--data needs a directory'],
  ])('refuses %s in one line, never echoing it, with exit code 2', async (_, args, env, message) => {
    expectOneLineExit2(await start(args, env).exited, `${message}; see --help`);
  });
});

/** A TCP server that accepts connections and never says a word: a database that hangs. */
async function silentServer(): Promise<{ port: number; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, server, sockets };
}

describe('petstore-service: a store that never answers', () => {
  it('gives up on PostgreSQL and Redis after 5 s each, in one line with exit code 2', async () => {
    const silent = await silentServer();
    try {
      const [postgres, redis] = await Promise.all([
        start(['--database-url', `postgres://petstore@127.0.0.1:${silent.port}/petstore`]).exited,
        start(['--redis', `redis://127.0.0.1:${silent.port}`]).exited,
      ]);
      expectOneLineExit2(postgres, `cannot connect to PostgreSQL at 127.0.0.1:${silent.port}: no answer within 5 s`);
      expectOneLineExit2(redis, `cannot connect to Redis at 127.0.0.1:${silent.port}: no answer within 5 s`);
      // Both gave up by themselves: the server never answers, so only their own deadlines end them.
    } finally {
      silent.sockets.forEach((socket) => socket.destroy());
      silent.server.close();
    }
  }, 60_000);
});

describe('petstore-service --redis <url> / REDIS_URL', { tags: ['redis'] }, () => {
  let redis: TestRedis;
  /** A second redis-server that wants the password "secret". */
  let locked: TestRedis;
  const lockedPort = () => new URL(locked.url).port;

  beforeAll(async () => {
    [redis, locked] = await Promise.all([startRedis(), startRedis()]);
    const client = createClient({ url: locked.url });
    await client.connect();
    await client.configSet('requirepass', 'secret');
    await client.close();
  }, 30_000);
  afterAll(async () => {
    await Promise.all([redis?.stop(), locked?.stop()]);
  });

  it('says in one line that nothing answers at 127.0.0.1:1, never printing the password, and exits 2', async () => {
    expectOneLineExit2(await start(['--redis', 'redis://:topsecret@127.0.0.1:1']).exited, 'cannot connect to Redis at 127.0.0.1:1: connection refused');
  });

  it('keeps pets in Redis across a restart of the command (banner: Redis), and exits 0 on SIGTERM', async () => {
    const first = start([...KEY_ARGS, '--redis', redis.url]);
    const { url, stdout } = await first.listening;
    expect(stdout).toContain(`\nPets and limits: Redis at 127.0.0.1:${new URL(redis.url).port}\n`);
    for (const name of ['Rex', 'Tom']) expect((await create(url, { name, categoryId: 1 })).status).toBe(201);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);

    const second = start(KEY_ARGS, { REDIS_URL: redis.url });
    const restarted = await second.listening;
    expect(await listAll(restarted.url)).toEqual([
      { id: 1, name: 'Rex', categoryId: 1 },
      { id: 2, name: 'Tom', categoryId: 1 },
    ]);
    expect(await (await create(restarted.url, { name: 'Kit', categoryId: 1 })).json()).toMatchObject({ id: 3 });
  });

  it('with a password in the URL, names host and port in the banner and never the password', async () => {
    const server = start([...KEY_ARGS, '--redis', `redis://:secret@127.0.0.1:${lockedPort()}`]);
    const { url, stdout } = await server.listening;
    expect(stdout).toContain(`\nPets and limits: Redis at 127.0.0.1:${lockedPort()}\n`);
    expect((await create(url, { name: 'Rex', categoryId: 1 })).status).toBe(201);
    server.child.kill('SIGTERM');
    const { code, stdout: all, stderr } = await server.exited;
    expect(code).toBe(0);
    expect(all + stderr).not.toContain('secret');
  });

  it.each<[string, string, string]>([
    ['a wrong password', 'redis://:wrong-topsecret@127.0.0.1:PORT', 'wrong user name or password'],
    ['no password', 'redis://127.0.0.1:PORT', 'it wants a password: redis://:PASSWORD@host:port'],
  ])('refuses %s for a Redis that wants one, in one line with exit code 2', async (_, url, reason) => {
    const result = await start(['--redis', url.replace('PORT', lockedPort())]).exited;
    expectOneLineExit2(result, `cannot connect to Redis at 127.0.0.1:${lockedPort()}: ${reason}`);
  });

  it(
    'runs each storage example of --help: --data and --redis ones start (on a test directory and Redis), PostgreSQL ones try the host they name',
    async () => {
      const { stdout: help } = await start(['--help']).exited;
      const examples = help
        .split('\nExamples:\n')[1]!
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => /\bpetstore-service\b/.test(line) && /--data|--database-url|--redis|DATABASE_URL|REDIS_URL/.test(line));
      const named = (flag: string) => examples.some((example) => example.includes(flag));
      expect(['--data', '--database-url', 'DATABASE_URL', '--redis', 'REDIS_URL'].filter((flag) => !named(flag))).toEqual([]);
      for (const example of examples) {
        // The example's hosts become test ones: PostgreSQL where nothing listens, Redis the locked one (password "secret").
        const local = example
          .replace(/@[\w.-]+(:\d+)?\//g, '@127.0.0.1:1/')
          .replace(/(redis:\/\/(?:[^@\s]*@)?)[\w.-]+:\d+/g, `$1127.0.0.1:${lockedPort()}`)
          .replace(/--data \S+/, `--data ${join(tempDir(), 'data')}`);
        const words = local.split(/\s+/);
        const env = Object.fromEntries(words.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split(/=(.*)/s).slice(0, 2)));
        const args = words.slice(words.indexOf('petstore-service') + 1);
        const server = start(args, env);
        if (/postgres:/.test(example)) {
          expectOneLineExit2(await server.exited, 'cannot connect to PostgreSQL at 127.0.0.1:1: connection refused');
          continue;
        }
        const { stdout } = await server.listening;
        expect(stdout, example).toMatch(/\nPets and limits: (PGlite in .+|Redis at 127\.0\.0\.1:\d+)\n/);
        server.child.kill('SIGTERM');
        expect((await server.exited).code, example).toBe(0);
      }
    },
    PGLITE_TIMEOUT_MS,
  );
});

describe('petstore-service without the optional drivers installed', () => {
  /** The package as npm installs it, with its dependencies and none of postgres, @electric-sql/pglite, redis. */
  let cli: string;
  beforeAll(() => {
    const root = tempDir();
    const installed = join(root, 'node_modules/petstore-service');
    mkdirSync(installed, { recursive: true });
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    cpSync('package.json', join(installed, 'package.json'));
    cpSync('dist', join(installed, 'dist'), { recursive: true });
    for (const name of Object.keys(pkg.dependencies)) {
      mkdirSync(dirname(join(root, 'node_modules', name)), { recursive: true });
      symlinkSync(resolve('node_modules', name), join(root, 'node_modules', name));
    }
    for (const driver of ['postgres', '@electric-sql/pglite', 'redis']) expect(existsSync(join(root, 'node_modules', driver))).toBe(false);
    cli = join(installed, 'dist/cli/index.js');
  });

  it('serves from memory, saying so', async () => {
    const { stdout } = await start(KEY_ARGS, {}, cli).listening;
    expect(stdout).toContain('\nPets and limits: memory (gone when the process stops)\n');
  });

  it.each<[string, string[], Record<string, string>, string]>([
    ['--data', ['--data', 'unused-dir'], {}, 'install @electric-sql/pglite to use --data'],
    ['--database-url', ['--database-url', 'postgres://petstore@127.0.0.1:1/petstore'], {}, 'install postgres to use --database-url'],
    ['DATABASE_URL', [], { DATABASE_URL: 'postgres://petstore@127.0.0.1:1/petstore' }, 'install postgres to use DATABASE_URL'],
    ['--redis', ['--redis', 'redis://127.0.0.1:1'], {}, 'install redis to use --redis'],
    ['REDIS_URL', [], { REDIS_URL: 'redis://127.0.0.1:1' }, 'install redis to use REDIS_URL'],
  ])('names the package %s needs, in one line with exit code 2', async (_, args, env, line) => {
    expectOneLineExit2(await start(args, env, cli).exited, line);
  });
});
