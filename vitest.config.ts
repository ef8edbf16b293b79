/**
 * Vitest: four projects, from what a suite needs to what it runs on.
 *
 *   unit         tests beside the code (src/, compose/, controls/, hosts/, runtimes/, stores/, testing/, cli/) and
 *                test/unit/: in process, no sockets
 *   integration  the sources behind real node:http servers the test starts itself, in process (test/http,
 *                test/conformance, test/fuzz, test/contract, PGlite, and any new folder under test/)
 *   e2e          the built package as users run it (`npm run build` first; `npm test` does): the command,
 *                the examples, the README's blocks, what npm pack ships
 *   system       real parts beyond Node: Chromium, redis-server, PostgreSQL, network namespaces (root),
 *                Deno, Bun and Node 24 from npm, consumers' type checks of the packed package
 *
 * `npm run test:fast` runs unit and integration (no build needed); `npm test` runs all four.
 *
 * A suite that needs a system part carries its tag (`// @module-tag redis` at the top of the file,
 * or `{ tags: ['redis'] }` on a describe): without the part it is skipped, and the run ends with one
 * block naming it and the command that installs it; with CI set it fails instead
 * (test/helpers/system-parts.ts). Tags apply in every project, not only in system.
 */
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { IN_CI, missingParts, PART_NAMES, PARTS } from './test/helpers/system-parts.ts';

const UNIT = ['{src,compose,controls,hosts,runtimes,stores,testing,cli}/**/*.test.ts', 'test/unit/**/*.test.ts'];
const E2E = [
  'test/cli*.test.ts',
  'test/compose/**/*.test.ts',
  'test/consumer/**/*.test.ts', // a generated client against the built command
  'test/docs/**/*.test.ts',
  'test/http/secrets.test.ts', // one test starts the built command
  'test/mount/recipes.test.ts',
  'test/package.test.ts',
  'examples/**/*.test.ts',
];
const SYSTEM = [
  'test/browser/**/*.test.ts',
  'test/flood/**/*.test.ts',
  'test/many-instances.test.ts',
  'test/mount/mount.test.ts', // the recipes on Deno and Bun too
  'test/redis/**/*.test.ts',
  'test/runtimes/**/*.test.ts',
  'test/sql/postgres.test.ts',
  'test/types/**/*.test.ts',
  'test/workers/**/*.test.ts', // local workerd (from npm), through Miniflare
];
/** README blocks the docs test writes and runs with a vitest of their own. */
const EXCLUDE = [...configDefaults.exclude, 'test/docs/.tmp/**'];

const missing = missingParts();
/**
 * Unit and integration files mostly wait on timers and sockets, so two at a time on a two-core machine
 * (where vitest's default, one fewer than the cores, runs one) take two-thirds of the time: `npm run
 * test:fast` 42 s instead of 64 s. The other projects keep the default: their suites time real
 * processes, type checks and a flood that measures the server's memory.
 */
const WAITING_WORKERS = Math.max(2, availableParallelism() - 1);
/** Vitest runs projects with different worker counts as groups, one after the other: these two first. */
const waiting = { maxWorkers: WAITING_WORKERS, sequence: { groupOrder: 0 } };
const timed = { sequence: { groupOrder: 1 } };
/** Their responses are checked against the OpenAPI document too; PostgreSQL from npm, where needed, is installed before their suites start. */
const withPostgres = { globalSetup: ['test/helpers/postgres-setup.ts'], setupFiles: ['test/contract/record.ts'] };

export default defineConfig({
  test: {
    testTimeout: 20_000,
    exclude: EXCLUDE,
    // A part this machine lacks skips the tests tagged with it, except under CI, where they run and fail.
    tags: PART_NAMES.map((name) => ({ name, description: `needs ${PARTS[name].label}`, skip: !IN_CI && missing.has(name) })),
    setupFiles: ['test/helpers/require-parts.ts'],
    // The default reporter, then the block of missing parts, so that block is the run's last output.
    reporters: ['default', './test/helpers/system-parts-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, ...waiting } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...EXCLUDE, ...UNIT, ...E2E, ...SYSTEM],
          ...waiting,
          // Every response a suite fetches from a test server must match the served OpenAPI document.
          setupFiles: ['test/contract/record.ts'],
        },
      },
      { extends: true, test: { name: 'e2e', include: E2E, ...withPostgres, ...timed } },
      { extends: true, test: { name: 'system', include: SYSTEM, ...withPostgres, ...timed } },
    ],
  },
});
