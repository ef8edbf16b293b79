// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
/**
 * A Next.js app under test, with no code that knows about tests: the pet shop in shop/ renders the
 * API's pets on its server and creates one from a form, with one key for the whole process, under
 * @vercel/otel with the API's origin in its fetch instrumentation's `propagateContextUrls`. Built
 * with `next build` and served by `next start` against one built command, the Playwright project in
 * project/ (20 tests, four workers, Chromium) passes with a sandbox per test, leaving none open; the
 * same tests whose pages carry no selector land in the main world and fail.
 *
 * Three green runs in a row, as test/ssr's: a run takes 25 to 39 s in four Chromium workers on two
 * busy cores, the build 9 to 17 s. Without the selector, four of the tests (one per worker) show it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPlaywright } from '../helpers/playwright-run.ts';
import { chromiumPath } from '../helpers/system-parts.ts';

const CLI = resolve('dist/cli/index.js');
const NEXT = resolve('node_modules/next/dist/bin/next');
const SHOP = resolve('test/nextjs/shop');
const CONFIG = 'test/nextjs/project/playwright.config.ts';
const ADMIN_TOKEN = 'nextjs-admin-token-0123456789';
/** The shop's one key, a main-world key on the pro plan: 20 tests share it when no selector keeps them apart. */
const SHOP_KEY = 'nextjs-shop-key-0123456789';
/** `next build` takes 11 to 16 s here, a run of 20 tests in four Chromium workers 33 to 39 s (a failed test restarts its worker, and with it Chromium). */
const BUILD_TIMEOUT_MS = 240_000;
const RUN_TIMEOUT_MS = 240_000;

const processes: ChildProcess[] = [];
let api: string;
let shop: string;
let scratch: string;

/** Starts `args` under Node with `env` over ours and resolves to the first match of `printed` in what it prints. */
async function start(args: string[], printed: RegExp, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
  processes.push(child);
  let output = '';
  return new Promise<string>((resolveMatch, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = printed.exec(output)?.[1];
      if (match) resolveMatch(match);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
  });
}

/** Runs `args` under Node in `cwd` to its end; rejects with what it printed unless it exits 0. */
async function runToEnd(args: string[], cwd: string, env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env } });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}: ${output}`);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'petstore-nextjs-'));
  const quiet = { DATABASE_URL: '', REDIS_URL: '', PETSTORE_API_KEYS: '', PETSTORE_ADMIN_TOKEN: '' };
  api = await start([CLI, '--port', '0', '--admin-token', ADMIN_TOKEN, '--key', `${SHOP_KEY}:pro`, '--quiet'], /listening on (\S+)/, { env: quiet });
  const started = performance.now();
  await runToEnd([NEXT, 'build'], SHOP, { NEXT_TELEMETRY_DISABLED: '1' });
  console.log(`next build: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  shop = await start([NEXT, 'start', '--port', '0', '--hostname', '127.0.0.1'], /Local:\s+(http:\/\/\S+)/, {
    cwd: SHOP,
    env: { PETSTORE_API_URL: api, PETSTORE_API_KEY: SHOP_KEY, NEXT_TELEMETRY_DISABLED: '1' },
  });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  for (const child of processes.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill();
    await once(child, 'exit');
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** `playwright test -c CONFIG …args` against the shop and the command, with `env` over their settings. */
const playwright = (env: Record<string, string> = {}, args: string[] = []) =>
  runPlaywright(CONFIG, scratch, { PETSTORE_URL: api, PETSTORE_ADMIN_TOKEN: ADMIN_TOKEN, SHOP_URL: shop, CHROMIUM_PATH: chromiumPath() ?? '', ...env }, args);

/** The sandboxes open on the command. */
async function openSandboxes(): Promise<unknown[]> {
  const response = await fetch(`${new URL(api).origin}/__admin/sandboxes`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return (await response.json()) as unknown[];
}

describe.sequential('a Next.js app under @vercel/otel, its pages driven by Playwright with a sandbox per test', () => {
  it.each([1, 2, 3])(
    'passes all 20 tests in four workers, each seeing only its own pets and journal, and leaves no sandbox open (run %i of 3)',
    {
      timeout: RUN_TIMEOUT_MS,
    },
    async (run) => {
      const { code, stats, tests, why } = await playwright();
      console.log(`Next.js shop, run ${run} of 3: ${stats.expected} passed, ${stats.unexpected} failed, in ${(stats.duration / 1000).toFixed(1)} s`);
      expect(stats.unexpected, why).toBe(0);
      expect([code, stats.expected, stats.flaky, stats.skipped, tests.length]).toEqual([0, 20, 0, 0, 20]);
      expect(await openSandboxes()).toEqual([]);
    },
  );

  // Four of them, one per worker, are enough to show it: each fails on its first look at the page.
  it('fails the same tests when their pages carry no selector: the shop shows the main world, which none of them seeded', {
    timeout: RUN_TIMEOUT_MS,
  }, async () => {
    const { code, tests } = await playwright({ PETSTORE_SELECTS_PAGES: 'false' }, ['--grep', 'with [1-4] pets seeded,']);
    expect(code).toBe(1);
    expect(tests.map(({ status, error }) => [status, error])).toEqual(Array(4).fill(['failed', 'Error: expect(received).toEqual(expected) // deep equality']));
    expect(await openSandboxes()).toEqual([]);
  });
});
