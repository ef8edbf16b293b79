/** A `--data` directory made ready for PGlite and locked to this process, since PGlite has no lock of its own. */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The file in a `--data` directory naming the process that has it open. */
const LOCK_FILE = 'petstore-service.lock';

/** A `pid` that is a live process (EPERM: alive, someone else's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A file-system error in a few words. */
function fsReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'EEXIST' || code === 'ENOTDIR') return 'not a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  return message;
}

/**
 * Makes `dir` this process's: a second process opening the same directory would corrupt it. The
 * lock file names our pid; one left by a process that is gone (killed with -9, crashed) is taken
 * over. Two processes starting within the same instant on a directory a dead one left can both
 * take it over; that race is not covered. Returns the release.
 */
function lockDirectory(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`cannot use --data ${dir}: ${fsReason(error)}`);
      const holder = Number(readFileSync(file, 'utf8').trim() || NaN);
      // An empty file is one another process is writing right now: in use too.
      if (!Number.isSafeInteger(holder) || (holder !== process.pid && isAlive(holder))) {
        const who = Number.isSafeInteger(holder) ? `process ${holder}` : 'another process';
        throw new Error(`--data ${dir} is in use by ${who}; stop it first (if none runs there, delete ${file})`);
      }
      rmSync(file, { force: true });
    }
  }
  const release = () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
    } catch {
      // Gone already.
    }
  };
  process.once('exit', release);
  return () => {
    process.off('exit', release);
    release();
  };
}

/**
 * `dir`, created if missing, checked to be empty or a PGlite database (PGlite would fill any
 * directory with its files: `--data .` must not), and locked to this process. Returns the
 * release; a directory that cannot be used is an Error whose message says why in one line.
 */
export function claimDataDirectory(dir: string): () => void {
  let entries: string[];
  try {
    mkdirSync(dir, { recursive: true });
    entries = readdirSync(dir).filter((name) => name !== LOCK_FILE);
  } catch (error) {
    throw new Error(`cannot use --data ${dir}: ${fsReason(error)}`);
  }
  if (entries.length > 0 && !entries.includes('PG_VERSION')) {
    throw new Error(`--data ${dir} is neither empty nor a PGlite database; name a new or empty directory`);
  }
  return lockDirectory(dir);
}
