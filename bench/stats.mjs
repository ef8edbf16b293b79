// Statistics the bench reports: the median of paired per-round ratios and its 95 % bootstrap interval.

/** @typedef {{ median: number, low: number, high: number }} Interval A median and its 95 % interval. */

/**
 * The median of `values` (the lower middle one for an even count, as the tables have always used).
 *
 * @param {readonly number[]} values
 * @returns {number}
 * @example
 * median([3, 1, 2, 4]); // 2
 */
export const median = (values) => /** @type {number} */ ([...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]);

/**
 * A small deterministic generator (mulberry32): the same rounds give the same interval, run after run,
 * so a table read twice says the same thing.
 *
 * @param {number} seed
 */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `{ median, low, high }`: the median of `values` and the 95 % percentile-bootstrap interval of that
 * median (`resamples` draws with replacement). One value gives an interval of that value alone.
 *
 * @example
 * medianInterval([1.02, 0.97, 1.05, 1.01]); // { median: 1.01, low: 0.97, high: 1.05 }
 * @param {readonly number[]} values
 * @param {{ resamples?: number, seed?: number }} [options]
 * @returns {Interval}
 */
export function medianInterval(values, { resamples = 2_000, seed = 0x5eed } = {}) {
  const middle = median(values);
  if (values.length < 2) return { median: middle, low: middle, high: middle };
  const next = random(seed);
  const medians = new Float64Array(resamples);
  const sample = new Array(values.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < values.length; i++) sample[i] = values[Math.floor(next() * values.length)];
    medians[r] = median(sample);
  }
  medians.sort();
  return { median: middle, low: medians[Math.floor(resamples * 0.025)] ?? middle, high: medians[Math.ceil(resamples * 0.975) - 1] ?? middle };
}

/**
 * Whether an interval meets a goal: its lower end at or above `goal` (`atMost`: its upper end at or
 * under it), so a target is met only when the whole interval is on the right side.
 *
 * @example
 * meets({ median: 1.1, low: 0.98, high: 1.2 }, 1); // false: the interval reaches below 1
 * @param {Interval} interval
 * @param {number} goal
 * @param {boolean} [atMost]
 */
export const meets = (interval, goal, atMost = false) => (atMost ? interval.high <= goal : interval.low >= goal);

/**
 * A number in en-US style with `digits` decimals.
 *
 * @example
 * fixed(1234.5, 1); // '1,234.5'
 * @param {number} n
 * @param {number} [digits]
 */
export const fixed = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * A ratio's median and 95 % interval as the tables show it: `1.23× (1.10–1.31)`.
 *
 * @example
 * shown({ median: 1.234, low: 1.1, high: 1.31 }); // '1.23× (1.10–1.31)'
 * @param {Interval} interval
 * @param {number} [digits]
 */
export const shown = ({ median: middle, low, high }, digits = 2) => `${fixed(middle, digits)}× (${fixed(low, digits)}–${fixed(high, digits)})`;

/**
 * A row of BENCHMARKS.md's targets, `[name, goal, measured, met, ratios]`: `intervals` is one
 * interval, or `[[label, interval], …]` for a row of several ratios that must each meet `goal` (at
 * least; `atMost`: at most), judged by {@link meets}. `after` follows the measured text (the ratio
 * at equal CPU, say). `ratios` names every interval of the row, for `--json` and the stability table.
 *
 * @example
 * targetRow('GET ÷ lean Fastify', 1.3, { median: 1.4, low: 1.32, high: 1.5 }); // [..., '≥ 1.3×', '1.40× (1.32–1.50)', true, {...}]
 * @param {string} name
 * @param {number} goal
 * @param {Interval | [string, Interval][]} intervals
 * @param {{ atMost?: boolean, digits?: number, after?: string }} [options]
 * @returns {[string, string, string, boolean, Record<string, Interval>]}
 */
export function targetRow(name, goal, intervals, { atMost = false, digits = 2, after = '' } = {}) {
  const several = Array.isArray(intervals);
  /** @type {[string, Interval][]} */
  const entries = several ? intervals : [[name, intervals]];
  const text = entries.map(([, interval]) => shown(interval, digits)).join(' · ');
  const ok = entries.every(([, interval]) => meets(interval, goal, atMost));
  const ratios = Object.fromEntries(entries.map(([label, interval]) => [several ? `${name} — ${label}` : name, interval]));
  return [name, `${atMost ? '≤' : '≥'} ${goal}×${several ? ' each' : ''}`, `${text}${after}`, ok, ratios];
}
