/** Starting example servers and probe programs as child processes on real runtimes, and finding those runtimes. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { runtimeBinary } from '../../scripts/runtime.mjs';

/** A server process and the base URL it printed. */
export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs `command args` with `env` and resolves once it prints `listening on <url>`. Rejects with
 * the process's own output if it exits or stays silent for 30 s, so a broken runtime fails loudly.
 * `stop()` sends `stopSignal`: SIGKILL by default, SIGTERM for a server that must stop children
 * of its own first (Miniflare's workerd outlives a killed parent).
 */
export function startServerProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  { stopSignal = 'SIGKILL' }: { readonly stopSignal?: NodeJS.Signals } = {},
): Promise<ServerProcess> {
  const child = spawn(command, args, { env: { ...process.env, PORT: '0', ...env } });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => fail(new Error(`${command} printed no URL within 30 s:\n${output}`)), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.on('error', (error) => fail(new Error(`${command} could not start: ${error.message}`)));
    child.on('exit', (code) => fail(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolvePromise({
        url,
        child,
        stop: async () => {
          if (child.exitCode !== null) return;
          const exited = new Promise((done) => child.once('exit', done));
          child.kill(stopSignal);
          // A server that does not stop on its signal within 10 s is killed.
          const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}

/**
 * Node 24 (npm package `node@24`), Deno (`deno`) and Bun (`bun`), each from its own folder under
 * test/runtimes/, installed there with `npm ci` on first use (scripts/runtime.mjs). That can take
 * a minute: await them at a test file's top level or in a hook with a long timeout.
 */
export const node24Binary = (): Promise<string> => runtimeBinary('node24');
export const denoBinary = (): Promise<string> => runtimeBinary('deno');
export const bunBinary = (): Promise<string> => runtimeBinary('bun');

/** A dev-dependency binary from node_modules/.bin, or a clear error when it is missing. */
export function devBinary(name: string): string {
  const binary = resolve('node_modules/.bin', name);
  if (!existsSync(binary)) throw new Error(`${name} is not installed: run npm install (it is a dev dependency)`);
  return binary;
}

/**
 * Runs `command args` to completion with `env` and parses the last line it prints as JSON.
 * Rejects with its output when it fails or runs past 60 s.
 */
export function runJsonProcess(command: string, args: string[], env: Record<string, string>): Promise<unknown> {
  return new Promise((resolvePromise, reject) => {
    execFile(command, args, { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const last = stdout.trimEnd().split('\n').at(-1) ?? '';
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
      else resolvePromise(JSON.parse(last));
    });
  });
}
