/**
 * Vitest for Stryker (stryker.config.mjs): the unit project (test/helpers/projects.ts), in process,
 * the tests that can kill a mutant of src/ at an affordable cost. Stryker runs each test that
 * covers a mutant once per mutant.
 */
import { configDefaults, defineConfig } from 'vitest/config';
import { PROJECT_FOLDERS } from './test/helpers/projects.ts';

export default defineConfig({
  test: {
    include: PROJECT_FOLDERS.unit.map((folder) => `${folder}/**/*.test.ts`),
    exclude: [...configDefaults.exclude],
    testTimeout: 20_000,
    // Each mutant runs its covering test files again: without isolation they share the modules
    // already loaded instead of loading the API anew per file. The price: what a module builds
    // once per process is built by the first run, so a mutant there can only look alive, never die
    // falsely (CONTRIBUTING.md, Mutation testing).
    isolate: false,
  },
});
