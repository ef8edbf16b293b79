#!/usr/bin/env node
/**
 * Deno, Bun and Node 24 from npm, each pinned by its own package-lock.json in test/runtimes/<name>/
 * and installed there (`npm ci`) the first time something needs it. They are not root dev
 * dependencies: deno and bun alone are about 300 MB that `npm install` need not fetch for work that
 * never runs them, and node@24's `node` bin would replace this Node in every npm script.
 *
 *   node scripts/runtime.mjs deno run --allow-net server.ts   installs deno if needed, then runs it
 *
 * The tests call runtimeBinary() (through test/runtimes/processes.ts) and start the binary themselves.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Each runtime's folder under test/runtimes/ and the bin its npm package installs. */
const RUNTIMES = { deno: 'deno', bun: 'bun', node24: 'node' };

/** An install still holding its lock after this long died without releasing it. */
const STALE_LOCK_MS = 10 * 60_000;
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** @param {string} name */
function locate(name) {
  if (!Object.hasOwn(RUNTIMES, name)) throw new Error(`unknown runtime "${name}"; the runtimes are ${Object.keys(RUNTIMES).join(', ')}`);
  const dir = resolve(ROOT, 'test/runtimes', name);
  const bin = RUNTIMES[/** @type {keyof typeof RUNTIMES} */ (name)];
  return { dir, binary: resolve(dir, 'node_modules/.bin', bin), lock: resolve(dir, '.installing') };
}

/** @param {string} name  whether the runtime is there and no install of it is under way */
export function isInstalled(name) {
  const { binary, lock } = locate(name);
  return existsSync(binary) && !existsSync(lock);
}

/**
 * The path of the runtime's binary, after installing it with `npm ci` if it is missing. Several
 * processes may ask at once (vitest runs test files side by side): one installs, holding a lock
 * directory, and the others wait for it.
 * @param {string} name  deno, bun or node24
 * @returns {Promise<string>}
 */
export async function runtimeBinary(name) {
  const { dir, binary, lock } = locate(name);
  for (;;) {
    if (isInstalled(name)) return binary;
    try {
      mkdirSync(lock);
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      if (lockAge(lock) > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else await sleep(500);
      continue;
    }
    try {
      if (!existsSync(binary)) await npmCi(dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    if (!existsSync(binary)) throw new Error(`npm ci in ${relative(ROOT, dir)} finished, but ${relative(ROOT, binary)} is missing`);
    return binary;
  }
}

/** @param {string} lock */
function lockAge(lock) {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0; // released meanwhile
  }
}

/** @param {string} dir */
function npmCi(dir) {
  // The npm running us (npm test, npm run) when there is one, else the one on PATH.
  const npm = process.env.npm_execpath;
  const [command, args] = npm?.endsWith('.js') ? [process.execPath, [npm]] : ['npm', []];
  const ci = [...args, 'ci', '--no-audit', '--no-fund', '--prefix', dir];
  return new Promise((resolvePromise, reject) => {
    execFile(command, ci, { timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`npm ci in ${relative(ROOT, dir)} failed: ${error.message}\n${stdout}${stderr}`));
      else resolvePromise(undefined);
    });
  });
}

/** `node scripts/runtime.mjs <runtime> [args…]`: runs the runtime with the args, as if it were on PATH. */
async function main() {
  const [name = '', ...args] = process.argv.slice(2);
  if (!Object.hasOwn(RUNTIMES, name)) {
    process.stderr.write(`usage: node scripts/runtime.mjs <${Object.keys(RUNTIMES).join('|')}> [args...]\n`);
    process.exit(2);
  }
  if (!isInstalled(name)) process.stderr.write(`Installing ${name} into ${relative(process.cwd(), locate(name).dir)} (first use only)...\n`);
  const binary = await runtimeBinary(name);
  const child = spawn(binary, args, { stdio: 'inherit' });
  /** @type {NodeJS.Signals[]} */
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (!signal) process.exit(code ?? 1);
    // Die of the same signal, so whoever started us sees what happened to the runtime.
    for (const each of signals) process.removeAllListeners(each);
    process.kill(process.pid, signal);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((/** @type {Error} */ error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}
