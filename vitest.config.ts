/**
 * Vitest: four projects, from what a suite needs to what it runs on. A test's project is its
 * folder's (test/helpers/projects.ts lists them; a test file in no listed folder fails
 * test/unit/projects.test.ts):
 *
 *   unit         tests beside the code (src/, compose/, controls/, hosts/, runtimes/, stores/, testing/, cli/) and
 *                test/unit/: in process, no sockets, no child processes, no build; the handler fuzzed briefly
 *   integration  the sources (unbuilt) behind real sockets and processes: node:http servers the test starts
 *                (test/http, test/conformance), the fuzzers at full count (test/fuzz, test/contract), the OpenAPI
 *                documents under the real Redocly and Spectral CLIs and the bench scripts under `node --check`
 *                (test/lint)
 *   e2e          the built package as users run it (`npm run build` first; `npm test` does): the command
 *                (test/cli), the products (test/compose), a generated client (test/consumer), the docs' blocks
 *                (test/docs), what npm pack ships (test/package), Playwright's runner on the fixture
 *                (test/playwright), the examples
 *   system       real parts beyond Node: Chromium, redis-server, PostgreSQL and PGlite, network namespaces (root),
 *                Deno, Bun and Node 24 from npm, workerd, consumers' type checks of the packed package, the container
 *                image under podman (test/container)
 *
 * `npm run test:fast` runs unit alone (no build needed); `npm test` runs all four. CONTRIBUTING.md
 * has what each costs, measured.
 *
 * A suite that needs a system part carries its tag (`// @module-tag redis` at the top of the file,
 * or `{ tags: ['redis'] }` on a describe): without the part it is skipped, and the run ends with one
 * block naming it and the command that installs it; with CI set it fails instead
 * (test/helpers/system-parts.ts). Tags apply in every project, not only in system.
 */
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { dashboardVitePlugin } from './scripts/dashboard-assets.ts';
import { PROJECT_FOLDERS, type ProjectName } from './test/helpers/projects.ts';
import { IN_CI, missingParts, PART_NAMES, PARTS } from './test/helpers/system-parts.ts';

/** A project's include: every test file under its folders. */
const testsIn = (project: ProjectName) => PROJECT_FOLDERS[project].map((folder) => `${folder}/**/*.test.ts`);
/** README blocks the docs test writes and runs with a vitest of their own. */
const EXCLUDE = [...configDefaults.exclude, 'test/docs/.tmp/**'];

const missing = missingParts();
/**
 * Unit and integration run two files at a time even on a two-core machine, where vitest's default
 * (one fewer than the cores) runs one: integration files mostly wait on timers and sockets, and a
 * unit file spends most of its time loading the sources, which the other core can do meanwhile.
 * The other projects keep the default: their suites time real processes, type checks and a flood
 * that measures the server's memory.
 */
const WAITING_WORKERS = Math.max(2, availableParallelism() - 1);
/** Vitest runs projects with different worker counts as groups, one after the other: these two first. */
const waiting = { maxWorkers: WAITING_WORKERS, sequence: { groupOrder: 0 } };
const timed = { sequence: { groupOrder: 1 } };
/** Their responses are checked against the OpenAPI document too; PostgreSQL from npm, where needed, is installed before their suites start. */
const withPostgres = { globalSetup: ['test/helpers/postgres-setup.ts'], setupFiles: ['test/contract/record.ts'] };

export default defineConfig({
  // The admin API's dashboard as the build makes it, from the client's sources as they are now.
  plugins: [dashboardVitePlugin()],
  test: {
    testTimeout: 20_000,
    exclude: EXCLUDE,
    // A part this machine lacks skips the tests tagged with it, except under CI, where they run and fail.
    tags: PART_NAMES.map((name) => ({ name, description: `needs ${PARTS[name].label}`, skip: !IN_CI && missing.has(name) })),
    setupFiles: ['test/helpers/require-parts.ts'],
    // The default reporter, then the block of missing parts, so that block is the run's last output.
    reporters: ['default', './test/helpers/system-parts-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: testsIn('unit'), ...waiting } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: testsIn('integration'),
          ...waiting,
          // Every response a suite fetches from a test server must match the served OpenAPI document.
          setupFiles: ['test/contract/record.ts'],
        },
      },
      { extends: true, test: { name: 'e2e', include: testsIn('e2e'), ...withPostgres, ...timed } },
      { extends: true, test: { name: 'system', include: testsIn('system'), ...withPostgres, ...timed } },
    ],
  },
});
