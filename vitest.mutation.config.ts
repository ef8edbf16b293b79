/**
 * Vitest for Stryker (stryker.config.mjs): the in-process tests only, the ones that can kill a
 * mutant of src/ at an affordable cost. Stryker runs each test that covers a mutant once per mutant.
 */
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The unit project of vitest.config.ts: tests beside the code, and test/unit/.
    include: ['{src,compose,controls,hosts,runtimes,stores,testing,cli}/**/*.test.ts', 'test/unit/**/*.test.ts'],
    // These two spawn processes (Redocly and Spectral; `node --check` on the bench scripts) for
    // 70 s of the unit project's 97 s; the OpenAPI document they lint is checked in process, word
    // for word, by test/unit/openapi-snapshot.test.ts.
    exclude: [...configDefaults.exclude, 'test/unit/openapi-lint.test.ts', 'test/unit/bench-scripts.test.ts'],
    testTimeout: 20_000,
    // Each mutant runs its covering test files again: without isolation they share the modules
    // already loaded instead of loading the API anew per file. The price: what a module builds
    // once per process is built by the first run, so a mutant there can only look alive, never die
    // falsely (CONTRIBUTING.md, Mutation testing).
    isolate: false,
  },
});
