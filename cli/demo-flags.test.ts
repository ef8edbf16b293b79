/** --delay and --generate as the command reads them: the shapes each takes, and one plain line naming the fix for the rest. */
import { describe, expect, it } from 'vitest';
import { delayInWords, readDelay, readGenerate } from './demo-flags.ts';

describe('readDelay', () => {
  it('takes a fixed delay or a range, both ends included; a range of one number is that number', () => {
    expect(readDelay(undefined)).toBe(0);
    expect(readDelay('300')).toBe(300);
    expect(readDelay('100-400')).toEqual({ min: 100, max: 400 });
    expect(readDelay('0-2147483647')).toEqual({ min: 0, max: 2 ** 31 - 1 });
    expect(readDelay('300-300')).toBe(300);
    expect(readDelay('0-0')).toBe(0);
    expect(delayInWords(readDelay('100-400'))).toBe('100-400 ms');
  });

  it('refuses a range from high to low, or anything but whole numbers, naming the fix', () => {
    expect(() => readDelay('400-100')).toThrow('--delay 400-100 runs from high to low; write the smaller number first, e.g. --delay 100-400');
    for (const text of ['1-x', '-5', '1-', '1--2', '1.5', '100 - 400', '1-2147483648']) {
      expect(() => readDelay(text)).toThrow(
        `--delay must be milliseconds (300) or a range of them (100-400), whole numbers from 0 to 2147483647, got "${text}"`,
      );
    }
  });
});

describe('readGenerate', () => {
  it('takes COUNT or COUNT:SEED, seed 1 when none is given', () => {
    expect(readGenerate(undefined)).toBeUndefined();
    expect(readGenerate('25')).toEqual({ count: 25, seed: 1 });
    expect(readGenerate('25:7')).toEqual({ count: 25, seed: 7 });
    expect(readGenerate('10000:4294967295')).toEqual({ count: 10_000, seed: 2 ** 32 - 1 });
  });

  it('refuses a count or seed out of range, or another shape, naming both ranges and an example', () => {
    for (const text of ['0', '10001', '25:4294967296', '25:x', '25:', ':7', '-1', '2.5']) {
      expect(() => readGenerate(text)).toThrow(
        `--generate must be COUNT or COUNT:SEED, a count from 1 to 10000 and a seed from 0 to 4294967295, e.g. --generate 25:7, got "${text}"`,
      );
    }
  });
});
