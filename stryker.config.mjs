/** Stryker: mutation testing of src/ against the in-process tests (`npm run test:mutation`; CONTRIBUTING.md says how). */
// @ts-check

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  // Each mutant runs only the tests that reached it in the first, instrumented run.
  coverageAnalysis: 'perTest',
  // The core only; a test file is never a mutant.
  mutate: ['src/**/*.ts', '!src/**/*.test.ts'],
  // Results kept in reports/ (ignored by git): a later run tests only the mutants whose code or
  // covering tests changed since. `--force` runs every mutant again.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  // Stryker copies the checkout into a sandbox and reads no .gitignore: another run's sandbox
  // (`--tempDirName .stryker-tmp-<name>`, for runs side by side) would be copied too, and fail the
  // copy when it changes under it.
  ignorePatterns: ['/.stryker-tmp-*', '/test-results'],
  // A static mutant (a module-level value: the OpenAPI document's parts, the schemas) runs every
  // test after reloading every module: in src/operations 29% of the mutants took 68% of the time.
  // `npm run test:mutation -- --ignoreStatic false` tests them too.
  ignoreStatic: true,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // Two cores, shared: one test process. Raise it with `-- --concurrency 2` on a quiet machine.
  concurrency: 1,
  thresholds: { high: 90, low: 80, break: null },
};
