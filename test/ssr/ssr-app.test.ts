// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
/**
 * A server-rendered Express app under the OpenTelemetry Node SDK, with no code that knows about
 * tests (app/), driven by @playwright/test (project/: 24 tests, four Chromium workers, webServer
 * starting the built command and the app with its one main-world key on the free plan): three runs
 * in a row all green, each test seeing only its own pets and journal, no sandbox left open and none
 * of the app's calls in the main world; then the same tests with the fixture's selection turned
 * off, whose pages all land in the main world, and fail.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { runPlaywright } from '../helpers/playwright-run.ts';
import { chromiumPath } from '../helpers/system-parts.ts';

const CONFIG = 'test/ssr/project/playwright.config.ts';
const TESTS = 24;
/** A run takes 30 to 60 s on a busy two-core machine; one whose tests all fail longer (each waits out its assertion, and restarts its worker). */
const RUN_TIMEOUT_MS = 240_000;

let scratch: string;
let ports: Record<string, string>;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'petstore-ssr-'));
  ports = { PETSTORE_PORT: String(await freePort()), SHOP_PORT: String(await freePort()) };
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The project, on fresh ports each run (webServer starts and stops both servers), with `env` over its settings. */
const run = (env: Record<string, string> = {}) => runPlaywright(CONFIG, scratch, { ...ports, CHROMIUM_PATH: chromiumPath() ?? '', ...env });

describe.sequential('an Express app under the OpenTelemetry Node SDK, its pages driven by Playwright with a sandbox per test', () => {
  it.each([1, 2, 3])(
    `passes all ${TESTS} tests in four workers, each seeing only its own pets and journal, and leaves no sandbox open and the main world untouched (run %i of 3)`,
    { timeout: RUN_TIMEOUT_MS },
    async (runNumber) => {
      const { code, stats, tests, errors, why } = await run();
      console.log(`Express shop, run ${runNumber} of 3: ${stats.expected} passed, ${stats.unexpected} failed, in ${(stats.duration / 1000).toFixed(1)} s`);
      expect(stats.unexpected, why).toBe(0);
      // The project's global teardown throws on a sandbox left open or an app's call in the main world.
      expect(errors, why).toEqual([]);
      expect([code, stats.expected, stats.flaky, stats.skipped, tests.length]).toEqual([0, TESTS, 0, 0, TESTS]);
    },
  );

  it("fails every test when the pages carry no selector: the app shows the main world, which none of them seeded, or a stale selector's 404", {
    timeout: RUN_TIMEOUT_MS,
  }, async () => {
    const { code, stats, tests, errors } = await run({ PETSTORE_SELECTS_PAGES: 'false' });
    console.log(`Express shop without the selector: ${stats.expected} passed, ${stats.unexpected} failed, in ${(stats.duration / 1000).toFixed(1)} s`);
    expect(code).toBe(1);
    expect([stats.expected, stats.unexpected]).toEqual([0, TESTS]);
    // Each fails where it first reads its pets: the page's list (toHaveText), or page.request's HTML (toEqual).
    const where = (test: { error: string }) => /expect\((?:locator|received)\)\.(toHaveText|toEqual)/.exec(test.error)?.[1];
    expect(tests.map(where).sort()).toEqual([...Array(4).fill('toEqual'), ...Array(20).fill('toHaveText')]);
    // Twenty first lists, answered by the main world; the four whose own baggage holds a stale selector got its 404 instead.
    expect(errors).toEqual([expect.stringContaining("ssr project: 20 of the shop's call(s) in the main world's journal")]);
  });
});
