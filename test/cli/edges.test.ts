/**
 * The command (built) where a flag points somewhere odd: a --data directory it cannot create or
 * write, a first start killed half-way, keys and hosts written wrong, a store URL to the wrong kind
 * of server, stdout closed under it. Each is answered at once with one line on stderr that names
 * the problem and the fix, never a hang, a stack trace or a directory no later start accepts.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliProcess, listening } from '../helpers/cli.ts';

/** Longer than any of these takes to answer on a busy machine; a hang fails here, not at the suite's timeout. */
const ANSWER_WITHIN_MS = 15_000;
/** A first start on an empty directory runs PGlite's initdb: seconds, more on a busy machine. */
const PGLITE_TIMEOUT_MS = 120_000;
const WRITABLE_FIX = 'name a directory you can write to, e.g. --data ./petstore-data';

const directories: string[] = [];
afterAll(() => directories.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-edges-'));
  directories.push(dir);
  return dir;
}

/** The command on a free port, with the machine's PORT, DATABASE_URL and REDIS_URL out of the way. */
const command = (args: string[]) => runCli(['--port', '0', ...args]);

/** How it exited, or a `code` saying it still runs after {@link ANSWER_WITHIN_MS} (then it is killed after the test). */
async function answer(cli: CliProcess): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<undefined>((resolvePromise) => (timer = setTimeout(() => resolvePromise(undefined), ANSWER_WITHIN_MS)));
  const exited = await Promise.race([cli.exited, hung]);
  clearTimeout(timer);
  return exited ?? { code: `still running after ${ANSWER_WITHIN_MS} ms`, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** The line `petstore-service: <line>` alone on stderr, nothing on stdout, exit code 2. */
async function expectRefused(cli: CliProcess, line: string): Promise<void> {
  expect(await answer(cli)).toEqual({ code: 2, stdout: '', stderr: `petstore-service: ${line}\n` });
}

describe('petstore-service --data <dir> where no database can be', () => {
  it.skipIf(process.platform !== 'linux').each(['/proc/anything', '/proc/anything/deeper'])(
    'answers --data %s at once (no spin): /proc takes no new directories, name one you can write to',
    async (dir) => {
      await expectRefused(command(['--data', dir]), `cannot use --data ${dir}: /proc takes no new directories; ${WRITABLE_FIX}`);
    },
  );

  it('names the file when --data, or a directory on its way, is a file', async () => {
    const file = join(tempDir(), 'notes.txt');
    writeFileSync(file, 'mine');
    await expectRefused(command(['--data', file]), `cannot use --data ${file}: it is a file, not a directory; name a new or empty directory`);
    await expectRefused(
      command(['--data', join(file, 'data')]),
      `cannot use --data ${join(file, 'data')}: ${resolve(file)} is a file, not a directory; name a new or empty directory`,
    );
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });

  // A mode 0555 directory refuses any user but root: as root, the command runs without root's capabilities.
  it('says permission denied, not "no such file", for a directory this user may not write in', async () => {
    const parent = tempDir();
    spawnSync('chmod', ['0555', parent]);
    try {
      const dir = join(parent, 'data');
      const cli = runCli(['--port', '0', '--data', dir], {}, { unprivileged: true });
      await expectRefused(cli, `cannot use --data ${dir}: permission denied on ${dir}; ${WRITABLE_FIX}`);
    } finally {
      spawnSync('chmod', ['0755', parent]);
    }
  });

  // Read-only for root too takes a read-only mount: a tmpfs mounted so in a mount namespace of the command's own (root and unshare, as the netns part).
  it('says "read-only file system", not "no such file", for a directory to create, or to use, on one', { tags: ['netns'] }, () => {
    const mountPoint = tempDir();
    for (const dir of [join(mountPoint, 'data'), mountPoint]) {
      const cli = ['exec', JSON.stringify(process.execPath), 'dist/cli/index.js', '--port', '0', '--data', JSON.stringify(dir)].join(' ');
      const run = spawnSync('unshare', ['--mount', 'sh', '-c', `mount -t tmpfs -o ro tmpfs ${JSON.stringify(mountPoint)} && ${cli}`], {
        encoding: 'utf8',
        timeout: ANSWER_WITHIN_MS,
        env: { ...process.env, DATABASE_URL: '', REDIS_URL: '' },
      });
      expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
        status: 2,
        stdout: '',
        stderr: `petstore-service: cannot use --data ${dir}: ${dir} is on a read-only file system; ${WRITABLE_FIX}\n`,
      });
    }
  });

  it(
    "says it is creating the database before a first start's wait of seconds, and nothing on a later start",
    async () => {
      const dir = join(tempDir(), 'data');
      const first = command(['--data', dir]);
      // Whichever comes first: the line on stderr, or the URL on stdout after the wait.
      await Promise.race([once(first.child.stderr!, 'data'), once(first.child.stdout!, 'data'), first.exited]);
      expect({ stdout: first.stdout(), stderr: first.stderr() }).toEqual({
        stdout: '',
        stderr: `petstore-service: creating the database in ${dir} (first start takes a few seconds)…\n`,
      });
      await listening(first);
      first.child.kill('SIGTERM');
      expect((await first.exited).code).toBe(0);
      const second = command(['--data', dir]);
      await listening(second);
      expect(second.stderr()).toBe('');
    },
    PGLITE_TIMEOUT_MS,
  );

  it(
    'begins again a first start that was killed while PGlite wrote its files, rather than refusing the directory',
    async () => {
      // An empty directory, watched before the command starts: it is killed as soon as PGlite writes its first file there.
      const dir = tempDir();
      const pgliteFile = (name: unknown) => !String(name).startsWith('petstore-service.');
      const watcher = watch(dir);
      const written = new Promise<void>((resolvePromise) => watcher.on('change', (_, name) => pgliteFile(name) && resolvePromise()));
      const first = command(['--data', dir]);
      await written;
      watcher.close();
      first.child.kill('SIGKILL');
      expect(await first.exited).toMatchObject({ code: null, stdout: '' });

      const second = command(['--data', dir, '--key', 'edge-key:pro']);
      const url = await listening(second);
      const headers = { authorization: 'Bearer edge-key', 'content-type': 'application/json' };
      const created = await fetch(`${url}/pets`, { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' });
      expect(created.status).toBe(201);
      second.child.kill('SIGTERM');
      expect((await second.exited).code).toBe(0);
      const third = command(['--data', dir, '--key', 'edge-key:pro']);
      expect(await (await fetch(`${await listening(third)}/pets`, { headers })).json()).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
    },
    PGLITE_TIMEOUT_MS,
  );
});

describe('petstore-service: keys, hosts and URLs written wrong', () => {
  const PLANS = 'free, pro, business or enterprise:PER_MINUTE:PER_DAY';
  it.each<[string, string[], Record<string, string>, string]>([
    ['--key without ":plan"', ['--key', 'nocolon'], {}, `--key: API key entry 1: no ":plan" after the key; write KEY:PLAN, e.g. my-key:free (plans: ${PLANS})`],
    [
      'PETSTORE_API_KEYS without ":plan"',
      [],
      { PETSTORE_API_KEYS: 'ok:free,nocolon' },
      `PETSTORE_API_KEYS: API key entry 2: no ":plan" after the key; write KEY:PLAN, e.g. my-key:free (plans: ${PLANS})`,
    ],
    ['--key with an unknown plan', ['--key', 'k1:gold'], {}, `--key: API key entry 1: an unknown plan; plans: ${PLANS}`],
    ['--key without a key', ['--key', ':free'], {}, '--key: API key entry 1: no key before the ":"; write KEY:PLAN, e.g. my-key:free'],
    ['--key given twice', ['--key', 'k1:free', '--key', 'k1:pro'], {}, '--key: API key entry 2: the same key as entry 1; give each key once'],
    [
      '--key with one enterprise quota',
      ['--key', 'k1:enterprise:100'],
      {},
      '--key: API key entry 1: an enterprise plan is enterprise:PER_MINUTE:PER_DAY, two whole numbers above 0, e.g. enterprise:100000:10000000',
    ],
    ['--host with a port', ['--host', 'localhost:3000'], {}, '--host takes no port, got "localhost:3000"; give the port with --port'],
    ['--host with a scheme', ['--host', 'http://0.0.0.0'], {}, '--host takes a name or address without a scheme, got "http://0.0.0.0"; e.g. --host 0.0.0.0'],
    ['--host in brackets', ['--host', '[::1]'], {}, '--host takes an IPv6 address without brackets, e.g. --host ::1'],
    ['--fail-rate in hexadecimal', ['--fail-rate', '0x1'], {}, '--fail-rate must be a number from 0 to 1, got "0x1"'],
    [
      '--database-url with a stray % in the password',
      ['--database-url', 'postgres://u:top%secret@127.0.0.1:1/db'],
      {},
      '--database-url holds a % that starts no %-escape; write a % in the user name, password or database as %25',
    ],
    [
      'REDIS_URL with a stray % in the password',
      [],
      { REDIS_URL: 'redis://:top%secret@127.0.0.1:1' },
      'REDIS_URL holds a % that starts no %-escape; write a % in the user name, password or database as %25',
    ],
    [
      '--redis with a database by name',
      ['--redis', 'redis://127.0.0.1:1/cache'],
      {},
      '--redis may name a Redis database by its number only, as in redis://host:6379/0',
    ],
  ])('refuses %s with one line that names the fix, and exit code 2', async (_, args, env, line) => {
    const cli = runCli(['--port', '0', ...args], env);
    await expectRefused(cli, `${line}; see --help`);
  });
});

/** A TCP server that answers every connection with `reply` and closes it: something listens, but not the store. */
async function impostor(reply: string): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.end(reply)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, server };
}

describe('petstore-service: a store URL to a server that is not the store', () => {
  it.each<[string, string, string]>([
    ['redis://', 'redis://127.0.0.1:PORT', 'the server closed the connection'],
    ['rediss:// (TLS)', 'rediss://127.0.0.1:PORT', 'the server does not speak TLS, which the URL asks for (rediss://, sslmode)'],
  ])('says so in words for %s to an HTTP server, with exit code 2', async (_, url, reason) => {
    const { port, server } = await impostor('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    try {
      await expectRefused(command(['--redis', url.replace('PORT', String(port))]), `cannot connect to Redis at 127.0.0.1:${port}: ${reason}`);
    } finally {
      server.close();
    }
  });
});

describe('petstore-service when its stdout goes away', () => {
  it('says so in one line on stderr and goes on serving, without the access log', async () => {
    const cli = command(['--key', 'edge-key:pro']);
    const url = await listening(cli);
    cli.child.stdout!.destroy(); // as `petstore-service | head -1` does once head has its line
    const headers = { authorization: 'Bearer edge-key' };
    while (!cli.stderr().includes('\n')) {
      expect((await fetch(`${url}/pets`, { headers })).status).toBe(200);
      await Promise.race([once(cli.child.stderr!, 'data'), new Promise((resolvePromise) => setImmediate(resolvePromise))]);
    }
    expect(cli.stderr()).toBe('petstore-service: stdout is gone (its reader closed it); the server goes on, without the access log\n');
    expect((await fetch(`${url}/pets`, { headers })).status).toBe(200);
    expect(cli.child.exitCode).toBe(null);
  });
});

describe('petstore-service --port below 1024, as a user who may not bind it', () => {
  const unprivilegedStart = process.platform === 'linux' ? Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8')) : 1024;
  // Anyone may bind any port where the kernel lets every port be bound; as root, the command runs without root's capabilities.
  it.skipIf(unprivilegedStart <= 1)('names the port and the fix, exit code 1', async () => {
    expect(await answer(runCli(['--port', '1'], {}, { unprivileged: true }))).toEqual({
      code: 1,
      stdout: '',
      stderr: 'petstore-service: port 1 needs privileges this user lacks (ports below 1024 usually do); pick one from 1024 up with --port\n',
    });
  });
});
