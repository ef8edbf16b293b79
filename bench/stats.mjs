// Statistics the bench reports: the median of paired per-round ratios and its 95 % bootstrap interval.

/** The median of `values` (the lower middle one for an even count, as the tables have always used). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/**
 * A small deterministic generator (mulberry32): the same rounds give the same interval, run after run,
 * so a table read twice says the same thing.
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
  return { median: middle, low: medians[Math.floor(resamples * 0.025)], high: medians[Math.ceil(resamples * 0.975) - 1] };
}

/**
 * Whether an interval meets a goal: its lower end at or above `goal` (`atMost`: its upper end at or
 * under it), so a target is met only when the whole interval is on the right side.
 *
 * @example
 * meets({ median: 1.1, low: 0.98, high: 1.2 }, 1); // false: the interval reaches below 1
 */
export const meets = (interval, goal, atMost = false) => (atMost ? interval.high <= goal : interval.low >= goal);
