/** A test's vitest project follows from its folder alone (test/helpers/projects.ts), and the unit project, `npm run test:fast`, stays in process. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_FOLDERS, type ProjectName } from '../helpers/projects.ts';

/** Folders no project reads: installed packages, build output, the docs test's scratch copies, Stryker's sandboxes (`.stryker-tmp`, or `.stryker-tmp-<name>` for a run of its own). */
const NOT_TESTS = new Set(['node_modules', 'dist', '.git', '.tmp', '.stryker-tmp', 'reports', 'test-results']);
const isNotTests = (name: string) => NOT_TESTS.has(name) || name.startsWith('.stryker-tmp-');

/** Every `*.test.ts` under `folder`, as a path from the root with `/`. */
function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = folder === '.' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) return isNotTests(entry.name) ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const projects = Object.keys(PROJECT_FOLDERS) as ProjectName[];
const owners = (file: string) => projects.filter((project) => PROJECT_FOLDERS[project].some((folder) => file.startsWith(`${folder}/`)));
const files = testFiles('.');

/**
 * What a unit test may not do: start a process or a thread, or open a socket (a server of its own,
 * or through the test helpers that start one). Importing node:http for its STATUS_CODES is fine.
 */
const OUT_OF_PROCESS =
  /from ['"]node:(child_process|net|tls|dgram|cluster|worker_threads)['"]|\bcreateServer\(|\.listen\(|\b(startServer|listenForTest|listen|runCli|startExample)\(|helpers\/(server|cli|raw-http)\.ts/;

describe('the vitest projects', () => {
  it('find the test files', () => {
    expect(files).toContain('src/route/route.test.ts');
    expect(files).toContain('test/http/auth.test.ts');
  });

  it('take each test file from its folder: every file is in exactly one project', () => {
    expect(files.filter((file) => owners(file).length !== 1).map((file) => `${file}: ${owners(file).join(', ') || 'no project'}`)).toEqual([]);
  });

  it('name no folder twice', () => {
    const folders = projects.flatMap((project) => PROJECT_FOLDERS[project]);
    expect(folders.filter((folder, i) => folders.indexOf(folder) !== i)).toEqual([]);
  });

  it('keep the unit project in process: no unit test starts a process or opens a socket', () => {
    const unit = files.filter((file) => owners(file)[0] === 'unit');
    expect(unit.length).toBeGreaterThan(20);
    const outside = unit.filter((file) => OUT_OF_PROCESS.test(readFileSync(join('.', file), 'utf8')));
    expect(outside).toEqual([]);
  });
});
