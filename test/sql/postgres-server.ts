/**
 * A throwaway PostgreSQL cluster for a test file: `initdb` into a fresh temp dir, `pg_ctl` on a free
 * port, a non-superuser role `petstore` owning its database, stopped, started and removed at will.
 * The system's PostgreSQL when there is one, else PostgreSQL from npm (not as root): postgres-binaries.ts.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { freePort } from '../helpers/free-port.ts';
import { postgresBinDir } from '../helpers/postgres-binaries.ts';
import { missingMessage } from '../helpers/system-parts.ts';

/** PostgreSQL refuses to run as root: as root, the server's commands run as the unprivileged `postgres` user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(missingMessage('postgres', 'running as root, and there is no "postgres" user to run the server as'));
  }
}

/** A running cluster for one test file. */
export interface TestPostgres {
  /** The `petstore` role (LOGIN, password, no superuser, no CREATEDB) on the database it owns. */
  readonly url: string;
  /** The bootstrap superuser, for creating databases and looking behind the stores' backs. */
  readonly adminUrl: string;
  /** A new empty database owned by `petstore`, and its URL as that role. */
  freshDatabase(): Promise<string>;
  /** Stops the server, as a crash (`immediate`, the default: no shutdown checkpoint, recovery on start) or cleanly (`fast`). Data stay. */
  stopServer(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts the stopped server again, on the same port and data. */
  startServer(): Promise<void>;
  /** stopServer() then startServer(). */
  restart(): Promise<void>;
  /** Stops the server and removes the cluster's folder. */
  stop(): Promise<void>;
}

/** Starts a throwaway cluster, or fails saying what is missing and how to install it. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = await postgresBinDir();
  const user = serverUser();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'petstore-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const adminPassword = `admin-${Math.random().toString(36).slice(2)}`;
  const password = `petstore-${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(dir, 'pwfile'), `${adminPassword}\n`);
  if (user) {
    chownSync(dir, user.uid, user.gid);
    chownSync(join(dir, 'pwfile'), user.uid, user.gid);
  }

  /** Runs a server command to its end, as the server's user; rejects with its output. */
  const run = async (command: string, args: string[]) => {
    const [file, argv] = user ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args];
    const child = spawn(file, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
      throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}\n${serverLog}`);
    }
  };

  let running = false;
  // Whatever happens to the test process, it leaves no server behind.
  const onExit = () => {
    if (!running) return;
    spawnSync(
      user ? 'runuser' : join(bin, 'pg_ctl'),
      user ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, 'stop', '-m', 'immediate'] : ['-D', data, 'stop', '-m', 'immediate'],
    );
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  // Local (socket) connections trust, TCP needs a password: the stores connect over TCP with one.
  await run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--pwfile',
    join(dir, 'pwfile'),
    '--auth-local',
    'trust',
    '--auth-host',
    'scram-sha-256',
    '--no-locale',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  // fsync=off for speed only: it risks data when the machine crashes, not when the server process
  // dies, so the outage test's stop -m immediate still loses nothing that was committed.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const startServer = async () => {
    await run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start']);
    running = true;
  };
  const stopServer = async (mode: 'immediate' | 'fast' = 'immediate') => {
    await run('pg_ctl', ['-D', data, '-w', '-t', '60', 'stop', '-m', mode]);
    running = false;
  };
  await startServer();

  const adminUrl = `postgres://postgres:${adminPassword}@127.0.0.1:${port}/postgres`;
  const databaseUrl = (name: string) => `postgres://petstore:${password}@127.0.0.1:${port}/${name}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE ROLE petstore LOGIN PASSWORD '${password}' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
  await admin.unsafe('CREATE DATABASE petstore OWNER petstore');
  let databases = 0;

  return {
    url: databaseUrl('petstore'),
    adminUrl,
    async freshDatabase() {
      const name = `petstore_${++databases}`;
      await admin.unsafe(`CREATE DATABASE ${name} OWNER petstore`);
      return databaseUrl(name);
    },
    stopServer,
    startServer,
    async restart() {
      await stopServer();
      await startServer();
    },
    async stop() {
      await admin.end({ timeout: 1 });
      if (running) await stopServer();
      process.off('exit', onExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
