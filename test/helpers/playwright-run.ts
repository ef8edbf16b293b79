/** Playwright's runner as the suites drive a project of theirs: `playwright test -c <config> --reporter=json` in a child process, to its end, and what its JSON report says. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const PLAYWRIGHT = resolve('node_modules/@playwright/test/cli.js');

/** What the JSON reporter counts: `expected` passed (or failed under test.fail), `unexpected` failed. */
export interface PlaywrightStats {
  readonly expected: number;
  readonly unexpected: number;
  readonly flaky: number;
  readonly skipped: number;
  readonly duration: number;
}

/** One finished test: its title, status and its error's first line, without the reporter's colours. */
export interface PlaywrightOutcome {
  readonly title: string;
  readonly status: string;
  readonly error: string;
}

/** A finished run: the exit code, the counts, each test, the errors outside any test (global setup and teardown, webServer), and `why`: every failure, those errors and the output, for an assertion's message. */
export interface PlaywrightRun {
  readonly code: number | null;
  readonly stats: PlaywrightStats;
  readonly tests: readonly PlaywrightOutcome[];
  readonly errors: readonly string[];
  readonly why: string;
}

interface Suite {
  readonly specs?: { title: string; tests: { results: { status: string; error?: { message?: string } }[] }[] }[];
  readonly suites?: Suite[];
}

const outcomes = (suite: Suite): PlaywrightOutcome[] => [
  ...(suite.specs ?? []).flatMap((spec) =>
    spec.tests.flatMap((test) =>
      test.results.map((result) => ({
        title: spec.title,
        status: result.status,
        error: stripVTControlCharacters(result.error?.message?.split('\n')[0] ?? ''),
      })),
    ),
  ),
  ...(suite.suites ?? []).flatMap(outcomes),
];

/**
 * Runs the project `config` with `env` over ours, its report and output in `scratch`, CI unset (so
 * the config, not the machine, decides), and resolves once it exits.
 *
 * @example
 * const { code, stats, why } = await runPlaywright('test/ssr/project/playwright.config.ts', scratch, { PETSTORE_PORT: '8080' });
 * expect(stats.unexpected, why).toBe(0);
 */
export async function runPlaywright(config: string, scratch: string, env: Record<string, string> = {}, args: readonly string[] = []): Promise<PlaywrightRun> {
  const report = join(scratch, `report-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const child = spawn(process.execPath, [PLAYWRIGHT, 'test', '-c', config, '--reporter=json', ...args], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: report, PETSTORE_PLAYWRIGHT_OUTPUT: join(scratch, 'results'), CI: '', ...env },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  const { stats, suites, errors } = JSON.parse(readFileSync(report, 'utf8')) as { stats: PlaywrightStats; suites: Suite[]; errors: { message?: string }[] };
  const tests = suites.flatMap(outcomes);
  const messages = errors.map((error) => error.message ?? '');
  const failures = tests.filter((test) => test.status !== 'passed').map((test) => `${test.title}: ${test.error}`);
  return { code, stats, tests, errors: messages, why: [...failures, ...messages, output].join('\n') };
}
