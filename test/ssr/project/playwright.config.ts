/**
 * The Playwright project that drives the Express pet shop (../app) in Chromium, as a team writes one:
 * webServer starts the fake backend and the shop under OpenTelemetry, four workers run every test in
 * parallel, a sandbox per test (run by test/ssr/ssr-app.test.ts).
 */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { PetstoreOptions } from 'petstore-service/playwright';

const ADMIN_TOKEN = 'ssr-admin-token-0123456789';
/** The shop's one key, on the free plan (60 requests a minute): the tests' 80 or so calls through it pass only because each sandbox counts its own. */
const SHOP_KEY = 'pet-shop-key-0123456789';
// The driver picks free ports; run by hand, the usual ones.
const PETSTORE_PORT = Number(process.env.PETSTORE_PORT ?? 8080);
const SHOP_PORT = Number(process.env.SHOP_PORT ?? 3000);
/** The command as the package's bin runs it (`npx petstore-service` in a project that installed the package). */
const CLI = resolve(import.meta.dirname, '../../../dist/cli/index.js');

export default defineConfig<PetstoreOptions>({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 4,
  fullyParallel: true,
  retries: 0,
  forbidOnly: true,
  reporter: 'line',
  // Nothing to keep (no traces, no screenshots): outside the repository.
  outputDir: process.env.PETSTORE_PLAYWRIGHT_OUTPUT ?? join(tmpdir(), 'petstore-ssr-results'),
  webServer: [
    {
      command: `node ${CLI} --port ${PETSTORE_PORT} --admin-token ${ADMIN_TOKEN} --key ${SHOP_KEY}:free --quiet`,
      url: `http://127.0.0.1:${PETSTORE_PORT}/healthz`,
      reuseExistingServer: !process.env.CI,
    },
    {
      command: 'node --import ./otel.mjs server.mjs',
      cwd: '../app',
      env: { PORT: String(SHOP_PORT), PETSTORE_API_URL: `http://127.0.0.1:${PETSTORE_PORT}/v1`, PETSTORE_API_KEY: SHOP_KEY },
      port: SHOP_PORT,
      reuseExistingServer: !process.env.CI,
    },
  ],
  // Before the servers stop: no sandbox left open, nothing in the main world's journal.
  globalTeardown: './global-teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${SHOP_PORT}`,
    petstoreUrl: `http://127.0.0.1:${PETSTORE_PORT}`,
    petstoreAdminToken: ADMIN_TOKEN,
    // PETSTORE_SELECTS_PAGES=false: the pages carry no selector, as a suite without it runs.
    petstoreSelectsPages: process.env.PETSTORE_SELECTS_PAGES !== 'false',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
});
