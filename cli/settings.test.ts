/** readSettings on --ban-hold-ms: it becomes the banHoldMs option, and a value that cannot be one is refused by the flag's name. */
import { describe, expect, it } from 'vitest';
import { readSettings } from './settings.ts';

describe('--ban-hold-ms', () => {
  it('leaves the option to its default when not given', () => {
    expect(readSettings([], {}).banHold).toEqual({});
  });

  it('becomes banHoldMs, 0 turning the hold off', () => {
    expect(readSettings(['--ban-hold-ms', '0'], {}).banHold).toEqual({ banHoldMs: 0 });
    expect(readSettings(['--ban-hold-ms=250'], {}).banHold).toEqual({ banHoldMs: 250 });
  });

  it.each([
    [['--ban-hold-ms', '1.5'], '--ban-hold-ms must be a whole number of milliseconds, 0 for none, got "1.5"'],
    [['--ban-hold-ms=-1'], '--ban-hold-ms must be a whole number of milliseconds, 0 for none, got "-1"'],
  ])('refuse %j', (argv, message) => {
    expect(() => readSettings(argv, {})).toThrow(message);
  });
});
