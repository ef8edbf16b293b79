/** A Playwright project as a team writes one against a running petstore-service: no browser, four workers, every test in parallel (run by test/playwright/playwright.test.ts). */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 4,
  fullyParallel: true,
  retries: 0,
  forbidOnly: true,
  reporter: 'line',
  // Nothing to keep (no browser, no traces): outside the repository.
  outputDir: process.env.PETSTORE_PLAYWRIGHT_OUTPUT ?? join(tmpdir(), 'petstore-playwright-results'),
  // PETSTORE_URL and PETSTORE_ADMIN_TOKEN come from the environment; `use: { petstoreUrl, petstoreAdminToken }` would do too.
});
