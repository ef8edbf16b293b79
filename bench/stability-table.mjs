// The stability table of #49: every ratio's median in back-to-back quick runs of one build, and how far each run strays from the others.
import { fixed as f } from './stats.mjs';

/** @typedef {import('./stats.mjs').Interval} Interval */
/** @typedef {{ name: string, medians: number[], deviation: number, steady: boolean }} StabilityRow */

/** Where `node bench/stability.mjs` saves its runs and table (committed: the full run's BENCHMARKS.md shows it). */
export const STABILITY_FILE = 'bench/stability.json';
/** A ratio holds still when no run's median strays more than this from the other runs'. */
export const STABILITY_GOAL = 0.05;

/**
 * How far the runs' medians of one ratio stray: for each run, |its median ÷ the mean of the other
 * runs' medians − 1| (with three runs, the mean of the other two is their median), and the largest.
 *
 * @example
 * deviation([1.0, 1.02, 0.97]); // 0.0396…: the third, 0.97 against the others' 1.01
 * @param {readonly number[]} medians
 * @returns {number}
 */
export function deviation(medians) {
  return Math.max(
    ...medians.map((value, i) => {
      const others = medians.filter((_, j) => j !== i);
      return Math.abs(value / (others.reduce((sum, x) => sum + x, 0) / others.length) - 1);
    }),
  );
}

/**
 * The table's rows from the runs' `--json` files (`{ ratios: { [name]: { median, low, high } } }`):
 * each ratio measured in every run, its medians and largest deviation, and whether that is within ±5 %.
 *
 * @example
 * const rows = stabilityRows([run1, run2, run3]); // [{ name, medians: [1.01, 0.99, 1.03], deviation: 0.03, steady: true }, …]
 * @param {readonly { ratios: Record<string, Interval> }[]} runs
 * @returns {StabilityRow[]}
 */
export function stabilityRows(runs) {
  const names = Object.keys(runs[0]?.ratios ?? {}).filter((name) => runs.every((run) => run.ratios[name]));
  return names.map((name) => {
    const medians = runs.map((run) => /** @type {Interval} */ (run.ratios[name]).median);
    const stray = deviation(medians);
    return { name, medians, deviation: stray, steady: stray <= STABILITY_GOAL };
  });
}

/**
 * The section of BENCHMARKS.md, from the saved file (`{ date, commit, settings, minutes, rows }`).
 *
 * @example
 * console.log(stabilitySection(JSON.parse(readFileSync(STABILITY_FILE, 'utf8'))));
 * @param {{ date: string, commit: string, settings: { rounds: number, seconds: number }, minutes: number[], rows: StabilityRow[] }} saved
 */
export function stabilitySection({ date, commit, settings, minutes, rows }) {
  const unsteady = rows.filter((row) => !row.steady);
  return `## Stability: ${rows.length - unsteady.length} of ${rows.length} ratios within ±${STABILITY_GOAL * 100} % over three quick runs

\`node bench/stability.mjs\` on ${date.slice(0, 10)}, commit ${commit}: one build, then \`npm run bench -- --quick\` three
times back to back (${settings.rounds} rounds of ${settings.seconds} s; ${minutes.map((x) => f(x, 1)).join(', ')} minutes). For every
ratio of the runs (the targets' and the HTTP table's), each run's median; **strays** is the largest over the
runs of |a run's median ÷ the mean of the other two − 1|. ✅ within ±${STABILITY_GOAL * 100} %; ❌ not: ${
    unsteady.length ? unsteady.map((row) => row.name).join('; ') : 'none'
  }.

| Ratio | Run 1 | Run 2 | Run 3 | Strays | |
| --- | --- | --- | --- | --- | --- |
${rows.map((row) => `| ${row.name} | ${row.medians.map((x) => `${f(x, 3)}×`).join(' | ')} | ${f(row.deviation * 100, 1)} % | ${row.steady ? '✅' : '❌'} |`).join('\n')}
`;
}
