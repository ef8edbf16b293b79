/** The Playwright project that drives the Next.js pet shop in Chromium: four workers, every test in parallel, a sandbox per test (run by test/nextjs/nextjs-app.test.ts). */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { PetstoreOptions } from 'petstore-service/playwright';

export default defineConfig<PetstoreOptions>({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 4,
  fullyParallel: true,
  retries: 0,
  forbidOnly: true,
  reporter: 'line',
  // Nothing to keep (no traces, no screenshots): outside the repository.
  outputDir: process.env.PETSTORE_PLAYWRIGHT_OUTPUT ?? join(tmpdir(), 'petstore-nextjs-results'),
  use: {
    // The shop the driver started (`next start`); PETSTORE_URL and PETSTORE_ADMIN_TOKEN come from the environment.
    baseURL: process.env.SHOP_URL,
    // PETSTORE_SELECTS_PAGES=false: the pages carry no selector, as a suite without it runs.
    petstoreSelectsPages: process.env.PETSTORE_SELECTS_PAGES !== 'false',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
});
