// `node bench/stability.mjs` (or `npm run bench -- --stability`): builds once, runs `npm run bench -- --quick` three times back to back, and saves the stability table of #49.
// Each quick run writes its ratios with --json and leaves BENCHMARKS.md alone; the table goes to bench/stability.json
// (commit it: the next full `npm run bench` shows it) and to stdout. `--runs=N` changes the three; `--no-build` skips the build.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { option } from './load.mjs';
import { STABILITY_FILE, stabilityRows, stabilitySection } from './stability-table.mjs';

const runs = Number(option('runs', 3));
if (!process.argv.includes('--no-build')) execFileSync('npm', ['run', 'build', '--silent', '--', '--silent'], { stdio: 'inherit' });
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const directory = mkdtempSync(join(tmpdir(), 'petstore-bench-stability-'));
try {
  const results = [];
  for (let run = 1; run <= runs; run++) {
    console.error(`[stability] quick run ${run} of ${runs}`);
    const file = join(directory, `run-${run}.json`);
    // Not `npm run bench`: that builds first, and every run must measure the same build.
    execFileSync(process.execPath, ['bench/index.mjs', '--quick', '--no-write', '--json', file], { stdio: ['ignore', 'ignore', 'inherit'] });
    results.push(JSON.parse(readFileSync(file, 'utf8')));
  }
  const saved = {
    date: new Date().toISOString(),
    commit,
    settings: results[0].settings,
    minutes: results.map((result) => result.minutes),
    rows: stabilityRows(results),
    runs: results.map((result) => result.ratios),
  };
  writeFileSync(STABILITY_FILE, `${JSON.stringify(saved, null, 2)}\n`);
  console.log(stabilitySection(saved));
} finally {
  rmSync(directory, { recursive: true, force: true });
}
