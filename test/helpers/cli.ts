/** The built petstore-service command as a child process for a test: what it has printed, and how it exits. Killed after each test. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach } from 'vitest';

const CLI = 'dist/cli/index.js';
const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));

/** A running command. `stdout()` and `stderr()` are what it has printed so far. */
export interface CliProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stdout(): string;
  stderr(): string;
}

/** Whether the tests run as root, who may write anywhere and bind any port. */
const IS_ROOT = process.getuid?.() === 0;

/**
 * `petstore-service …args` with `env`; the machine's DATABASE_URL and REDIS_URL never choose the
 * store (empty is unset). `unprivileged`: as root, the command runs in a user namespace of its own
 * (`unshare --user`), where it keeps root's ownership of files but none of its capabilities, so a
 * mode 0555 directory and a port below 1024 refuse it as they refuse any user.
 */
export function runCli(args: string[], env: Record<string, string> = {}, { unprivileged = false } = {}): CliProcess {
  const command = unprivileged && IS_ROOT ? ['unshare', '--user', process.execPath] : [process.execPath];
  const child = spawn(command[0]!, [...command.slice(1), CLI, ...args], { env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...env } });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** The URL `cli` prints once it listens; an Error with its stderr if it exits first. */
export async function listening(cli: CliProcess): Promise<string> {
  while (!/listening on (\S+)\n/.test(cli.stdout())) {
    if (cli.child.exitCode !== null) throw new Error(`exited with ${cli.child.exitCode}: ${cli.stderr()}`);
    await Promise.race([once(cli.child.stdout!, 'data'), cli.exited]);
  }
  return /listening on (\S+)\n/.exec(cli.stdout())![1]!;
}

/** A line of /proc/<pid>/status in kB (Linux only): VmRSS now, VmHWM its peak. */
export function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}
