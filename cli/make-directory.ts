/** Making the command's directories (`--data`, `init <dir>`) with every failure named in a few words, and never Node's recursive mkdir, which can spin forever. */
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Why a directory cannot be made or used, in a few words that name the path at fault ("it" for
 * the directory itself). `isFile`: a file is in the way, so the fix is another name rather than
 * another place to write.
 *
 * @example
 * new DirectoryProblem('/etc/passwd is a file, not a directory', true);
 */
export class DirectoryProblem extends Error {
  constructor(
    message: string,
    readonly isFile: boolean,
  ) {
    super(message);
  }
}

/**
 * A file-system error about `dir` (as typed) as a {@link DirectoryProblem}; `path` is where it
 * happened, `dir` itself or a parent on its way.
 *
 * @example
 * try {
 *   writeFileSync(join(dir, 'x.lock'), '');
 * } catch (error) {
 *   throw directoryProblem(dir, error); // e.g. "/mnt/ro is on a read-only file system"
 * }
 */
export function directoryProblem(dir: string, error: unknown, path = resolve(dir)): DirectoryProblem {
  const { code, message } = error as NodeJS.ErrnoException;
  const where = path === resolve(dir) ? dir : path;
  if (code === 'ENOTDIR' || code === 'EEXIST') return new DirectoryProblem(`${path === resolve(dir) ? 'it' : path} is a file, not a directory`, true);
  const reasons: Record<string, string> = {
    EACCES: `permission denied on ${where}`,
    EPERM: `permission denied on ${where}`,
    EROFS: `${where} is on a read-only file system`,
    ENOSPC: 'no space left on the device',
  };
  return new DirectoryProblem(reasons[code ?? ''] ?? String(message).split('\n')[0]!, false);
}

/**
 * Creates `dir` and its missing parents one at a time, or throws a {@link DirectoryProblem}. Not
 * mkdirSync's `recursive`: on a parent that exists but takes no new directories (/proc), Node
 * retries forever at full CPU, and it reports a read-only file system as ENOENT.
 *
 * @example
 * makeDirectory('./petstore-data/pglite'); // creates both if missing
 * makeDirectory('/proc/x'); // throws DirectoryProblem: "/proc takes no new directories"
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let path = resolve(dir); ; path = dirname(path)) {
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      // ENOTDIR: a parent is a file; walking up finds it and names it.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(path) === path) throw directoryProblem(dir, error, path);
      missing.push(path);
      continue;
    }
    if (!stats.isDirectory()) throw directoryProblem(dir, { code: 'ENOTDIR' }, path);
    break;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      if (code === 'EEXIST' && statSync(path, { throwIfNoEntry: false })?.isDirectory()) continue; // made meanwhile by another process
      // ENOENT although the parent is there: a file system like /proc or /sys, which takes no new directories.
      if (code === 'ENOENT') throw new DirectoryProblem(`${dirname(path)} takes no new directories`, false);
      throw directoryProblem(dir, error, path);
    }
  }
}
