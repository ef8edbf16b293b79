/** A `--data` directory made ready for PGlite and locked to this process, since PGlite has no lock of its own. */
import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DirectoryProblem, directoryProblem, makeDirectory } from './make-directory.ts';

/** The file in a `--data` directory naming the process that has it open. */
const LOCK_FILE = 'petstore-service.lock';
/** The file in a `--data` directory while its database is first created: there, everything else is a creation that never finished. */
const CREATING_FILE = 'petstore-service.creating';
/** What to do about a directory that cannot be created or written. */
const WRITABLE_FIX = 'name a directory you can write to, e.g. --data ./petstore-data';
/** What to do about a path that is a file, or a directory that holds other files. */
const EMPTY_FIX = 'name a new or empty directory';

/**
 * A `--data` directory this process holds.
 *
 * @example
 * const data: DataDirectory = claimDataDirectory('./petstore-data');
 * data.release();
 */
export interface DataDirectory {
  /** True when the directory holds no database yet: creating one takes seconds (PGlite's initdb), worth a line. */
  readonly fresh: boolean;
  /** Marks the database as whole once created and migrated; until then, the next start begins it again. */
  created(): void;
  /** Unlocks the directory. */
  release(): void;
}

/** A `pid` that is a live process (EPERM: alive, someone else's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One line for what is wrong with `dir` (as typed), with the fix. */
function refusal(dir: string, error: unknown): Error {
  const problem = error instanceof DirectoryProblem ? error : directoryProblem(dir, error);
  return new Error(`cannot use --data ${dir}: ${problem.message}; ${problem.isFile ? EMPTY_FIX : WRITABLE_FIX}`);
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
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw refusal(dir, error);
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
 * directory with its files: `--data .` must not), and locked to this process. A first start that
 * never finished (killed while PGlite wrote its files) is cleared and begun again, rather than
 * leaving a directory no start accepts. A directory that cannot be used is an Error whose message
 * says why and what to do, in one line.
 *
 * @example
 * const data = claimDataDirectory('./petstore-data');
 * if (data.fresh) console.error('creating the database…');
 * // … PGlite.create('./petstore-data'), migrate …
 * data.created();
 * // on shutdown, after closing the database:
 * data.release();
 */
export function claimDataDirectory(dir: string): DataDirectory {
  let entries: string[];
  try {
    makeDirectory(dir);
    entries = readdirSync(dir).filter((name) => name !== LOCK_FILE);
  } catch (error) {
    throw refusal(dir, error);
  }
  const unfinished = entries.includes(CREATING_FILE);
  if (entries.length > 0 && !entries.includes('PG_VERSION') && !unfinished) {
    throw new Error(`--data ${dir} is neither empty nor a PGlite database; ${EMPTY_FIX}`);
  }
  const release = lockDirectory(dir);
  const marker = join(dir, CREATING_FILE);
  const fresh = entries.length === 0 || unfinished;
  try {
    // Only ever written into an empty directory, so what lies beside it is that creation's.
    if (unfinished) for (const name of entries) rmSync(join(dir, name), { recursive: true, force: true });
    if (fresh) writeFileSync(marker, '');
  } catch (error) {
    release();
    throw refusal(dir, error);
  }
  return { fresh, created: () => rmSync(marker, { force: true }), release };
}
