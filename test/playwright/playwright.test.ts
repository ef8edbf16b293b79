/**
 * petstore-service/playwright under the real runner: the Playwright project in project/ (four
 * workers, every test in parallel, the fixture imported by the package's name from dist/) against
 * one built command, three runs in a row, all green, no sandbox left; then the same tests in the
 * main world every worker shares, as suites without sandboxes run, which fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPlaywright, type PlaywrightOutcome, type PlaywrightStats } from '../helpers/playwright-run.ts';

const CLI = resolve('dist/cli/index.js');
const CONFIG = 'test/playwright/project/playwright.config.ts';
const ADMIN_TOKEN = 'playwright-admin-token-0123456789';
/** The main world's keys, for the run that shares it. */
const SHARED_KEYS = { PETSTORE_FREE_KEY: 'shared-free-key', PETSTORE_PRO_KEY: 'shared-pro-key', PETSTORE_BUSINESS_KEY: 'shared-business-key' };
/** A run of 25 tests in 4 workers takes seconds, or a minute on a busy two-core machine (a failed test restarts its worker). */
const RUN_TIMEOUT_MS = 240_000;

let server: ChildProcess;
let url: string;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'petstore-playwright-'));
  const keys = Object.entries(SHARED_KEYS).map(([name, key]) => ['--key', `${key}:${name.split('_')[1]!.toLowerCase()}`]);
  server = spawn(process.execPath, [CLI, '--port', '0', '--admin-token', ADMIN_TOKEN, '--quiet', ...keys.flat()], {
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PETSTORE_API_KEYS: '', PETSTORE_ADMIN_TOKEN: '' },
  });
  let output = '';
  url = await new Promise<string>((resolveUrl, reject) => {
    server.stdout!.on('data', (chunk) => {
      output += chunk;
      const printed = /listening on (\S+)/.exec(output)?.[1];
      if (printed) resolveUrl(printed);
    });
    server.on('exit', (code) => reject(new Error(`petstore-service exited with ${code}: ${output}`)));
  });
}, 30_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill();
    await once(server, 'exit');
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** `playwright test -c CONFIG …args` with `env` over the server's settings, to its end (test/helpers/playwright-run.ts). */
const playwright = (env: Record<string, string>, args: string[] = []) =>
  runPlaywright(CONFIG, scratch, { PETSTORE_URL: url, PETSTORE_ADMIN_TOKEN: ADMIN_TOKEN, PETSTORE_WORLD: '', ...env }, args);

/** The sandboxes open on the server. */
async function openSandboxes(): Promise<unknown[]> {
  const response = await fetch(`${new URL(url).origin}/__admin/sandboxes`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return (await response.json()) as unknown[];
}

/** A run's counts and time, as the suite prints them. */
const summary = (what: string, { expected, unexpected, duration }: PlaywrightStats) =>
  `Playwright, ${what}: ${expected} as expected, ${unexpected} failed, in ${(duration / 1000).toFixed(1)} s`;

/** A run's failures, one line each, for an assertion's message. */
const failures = (tests: readonly PlaywrightOutcome[]) =>
  tests
    .filter((test) => test.status !== 'passed')
    .map((test) => `${test.title}: ${test.error.split('\n')[0]}`)
    .join('\n');

describe.sequential('a Playwright project with a sandbox per test, four workers in parallel', () => {
  it.each([1, 2, 3])('passes every one of its 25 tests, and leaves no sandbox open (run %i of 3)', { timeout: RUN_TIMEOUT_MS }, async (run) => {
    const { code, stats, tests, why } = await playwright({});
    console.log(summary(`sandbox per test, run ${run} of 3`, stats));
    expect(stats.unexpected, why).toBe(0);
    expect([code, stats.expected, stats.flaky, stats.skipped]).toEqual([0, 25, 0, 0]);
    expect(tests.length).toBe(25);
    // The one test that fails on purpose (test.fail) had its sandbox deleted too.
    expect(await openSandboxes()).toEqual([]);
  });

  it('fails when the same tests share the main world: ids, the free key minute, the clock and the journal collide', { timeout: RUN_TIMEOUT_MS }, async () => {
    const { code, stats, tests } = await playwright({ PETSTORE_WORLD: 'shared', ...SHARED_KEYS });
    console.log(summary('shared main world', stats));
    expect(code).toBe(1);
    expect(stats.expected + stats.unexpected).toBe(25);
    expect(stats.unexpected, failures(tests)).toBeGreaterThan(0);
  });

  it('fails at once with one line naming PETSTORE_URL and the petstoreUrl option when neither is set', { timeout: RUN_TIMEOUT_MS }, async () => {
    const { code, tests } = await playwright({ PETSTORE_URL: '' }, ['--grep', 'with 1 pets seeded,']);
    expect(code).toBe(1);
    expect(tests.map((test) => [test.status, test.error.split('\n')[0]])).toEqual([
      [
        'failed',
        'Error: petstore: no server to open sandboxes on: set PETSTORE_URL, or the petstoreUrl option (test.use({ petstoreUrl }) or use in playwright.config)',
      ],
    ]);
  });
});
