/**
 * Which vitest project runs a test: the one its folder belongs to. Every folder that holds tests is
 * listed under exactly one project, wholly; vitest.config.ts builds its projects from this, and
 * test/unit/projects.test.ts fails on a test file in no listed folder, or in two.
 */

/** The four projects, from what a suite needs to what it runs on (vitest.config.ts says what each holds). */
export type ProjectName = 'unit' | 'integration' | 'e2e' | 'system';

/**
 * Each project's folders, from the repository's root; a folder's subfolders go with it.
 *
 * @example
 * PROJECT_FOLDERS.unit.map((folder) => `${folder}/**\/*.test.ts`); // the unit project's include
 */
export const PROJECT_FOLDERS: Readonly<Record<ProjectName, readonly string[]>> = {
  // In process: no sockets, no child processes, no build.
  unit: ['src', 'compose', 'controls', 'hosts', 'runtimes', 'stores', 'testing', 'cli', 'test/unit'],
  // The sources, unbuilt, behind real sockets and processes.
  integration: ['test/http', 'test/conformance', 'test/contract', 'test/fuzz', 'test/lint', 'test/telemetry'],
  // The built package as users run it.
  e2e: ['test/cli', 'test/compose', 'test/consumer', 'test/docs', 'test/package', 'test/playwright', 'examples'],
  // Real parts beyond Node.
  system: [
    'test/browser',
    'test/container',
    'test/flood',
    'test/mount',
    'test/nextjs',
    'test/redis',
    'test/runtimes',
    'test/sql',
    'test/ssr',
    'test/types',
    'test/workers',
  ],
};
