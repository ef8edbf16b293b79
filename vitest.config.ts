/** Vitest: unit tests beside the code in src/, real-server suites under test/, example tests under examples/. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 20_000,
    // Every response a suite fetches from a test server must match the served OpenAPI document.
    setupFiles: ['test/contract/record.ts'],
  },
});
