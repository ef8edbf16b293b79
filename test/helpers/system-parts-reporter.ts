/**
 * A vitest reporter that ends the run with one block: each system part this machine lacks, the
 * suites skipped for it (or, with CI set, failed for it), and the command that installs it.
 * Listed after the default reporter, so the block is the last thing `npm test` prints.
 */
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';
import { IN_CI, missingParts, PART_NAMES, PARTS, type PartName } from './system-parts.ts';

/** The outermost describe carrying the part's tag (the test itself when none does), as `file › name`. */
function suiteOf(test: TestCase, part: PartName): string {
  let widest: TestSuite | TestCase = test;
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) {
    if (parent.options.tags?.includes(part)) widest = parent;
  }
  return `${test.module.relativeModuleId} › ${widest.name}`;
}

export default class SystemPartsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const missing = missingParts();
    /** For each missing part, its suites and how many of their tests were skipped (or failed, under CI). */
    const affected = new Map<PartName, Map<string, number>>();
    for (const module of testModules) {
      const tests = [...module.children.allTests()];
      for (const part of missing.keys()) {
        // Under CI a suite whose hook failed reports its tests as skipped, so any test not passed counts.
        const hit = tests.filter((test) => test.tags.includes(part) && (IN_CI ? test.result().state !== 'passed' : test.result().state === 'skipped'));
        if (hit.length === 0) continue;
        const suites = affected.get(part) ?? new Map<string, number>();
        affected.set(part, suites);
        // A whole file is named as the file; part of one, by its describe.
        const names = hit.length === tests.length ? hit.map(() => module.relativeModuleId) : hit.map((test) => suiteOf(test, part));
        for (const name of names) suites.set(name, (suites.get(name) ?? 0) + 1);
      }
    }
    if (affected.size === 0) return;

    const lines = [
      '',
      IN_CI
        ? 'FAILED for missing system parts (CI is set, so a missing part fails its suites instead of skipping them):'
        : 'SKIPPED for missing system parts (install them to run these suites; with CI=true they fail instead):',
    ];
    for (const part of PART_NAMES) {
      const suites = affected.get(part);
      if (!suites) continue;
      lines.push('', `  ${PARTS[part].label}: ${missing.get(part)}`, `    install: ${PARTS[part].install}`);
      for (const [suite, count] of suites) lines.push(`    ${IN_CI ? 'failed' : 'skipped'}: ${suite} (${count} ${count === 1 ? 'test' : 'tests'})`);
    }
    lines.push('');
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
