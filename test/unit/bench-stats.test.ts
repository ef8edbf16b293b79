/** The bench's verdicts (bench/stats.mjs, bench/stability-table.mjs): a target met only when its whole interval is, rows in the order given, runs' medians compared. */
import { describe, expect, it } from 'vitest';
import { deviation, stabilityRows } from '../../bench/stability-table.mjs';
import { targetRow } from '../../bench/stats.mjs';

const interval = (median: number, low: number, high: number) => ({ median, low, high });

describe("a target row's verdict", () => {
  it('is missed when the median reaches the goal but the interval reaches below it', () => {
    const [, goal, measured, met] = targetRow('GET ÷ lean Fastify', 1.3, interval(1.35, 1.28, 1.4));
    expect([goal, measured, met]).toEqual(['≥ 1.3×', '1.35× (1.28–1.40)', false]);
  });

  it('is met when the whole interval is at or above the goal', () => {
    expect(targetRow('GET ÷ lean Fastify', 1.3, interval(1.35, 1.3, 1.4))[3]).toBe(true);
  });

  it('for an at-most goal, is met only when the upper end stays at or under it', () => {
    expect(targetRow('CPU ÷ the floor', 1.5, interval(1.4, 1.3, 1.55), { atMost: true }).slice(1, 4)).toEqual(['≤ 1.5×', '1.40× (1.30–1.55)', false]);
    expect(targetRow('CPU ÷ the floor', 1.5, interval(1.4, 1.3, 1.5), { atMost: true })[3]).toBe(true);
  });

  it('of several ratios lists them in the order given (401 · 429 · 400) and needs each', () => {
    const [, goal, measured, met, ratios] = targetRow(
      'Refusals',
      1.5,
      [
        ['401', interval(1.2, 1.1, 1.3)],
        ['429', interval(1.4, 1.3, 1.6)],
        ['400', interval(1, 0.9, 1.1)],
      ],
      { atMost: true },
    );
    expect([goal, measured, met]).toEqual(['≤ 1.5× each', '1.20× (1.10–1.30) · 1.40× (1.30–1.60) · 1.00× (0.90–1.10)', false]);
    expect(Object.keys(ratios)).toEqual(['Refusals — 401', 'Refusals — 429', 'Refusals — 400']);
  });
});

describe('the stability table', () => {
  it("takes each run's stray from the mean of the other runs' medians, and the largest", () => {
    expect(deviation([1, 1, 1])).toBe(0);
    // The third run, 0.97 against the others' 1.01, strays most.
    expect(deviation([1, 1.02, 0.97])).toBeCloseTo(1 - 0.97 / 1.01, 10);
  });

  it('marks a ratio steady within ±5 % and not past it, for ratios every run measured', () => {
    const run = (a: number, b: number) => ({ ratios: { steady: interval(a, a, a), moving: interval(b, b, b) } });
    const rows = stabilityRows([run(1, 1), run(1.02, 1.2), run(0.99, 0.9)]);
    expect(rows.map(({ name, steady }) => [name, steady])).toEqual([
      ['steady', true],
      ['moving', false],
    ]);
  });
});
