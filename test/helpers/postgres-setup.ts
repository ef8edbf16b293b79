/**
 * Vitest global setup (e2e and system projects): installs PostgreSQL from npm before any suite starts,
 * when that is where this machine's comes from (test/helpers/postgres-binaries.ts), so no test hook's
 * time limit covers the download and no suite is left waiting on another's install.
 */
import { installNpmPostgres } from './postgres-binaries.ts';
import { postgresSource } from './system-parts.ts';

export default async function setup(): Promise<void> {
  if (postgresSource() !== 'npm') return;
  try {
    await installNpmPostgres();
  } catch (error) {
    // Not fatal to the run: the suites that need PostgreSQL try again and fail with this message.
    process.stderr.write(`${(error as Error).message}\n`);
  }
}
