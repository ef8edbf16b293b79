/** readSettings on the ban-hold flags: each becomes its option, and a value that cannot be one is refused by the flag's name. */
import { describe, expect, it } from 'vitest';
import { readSettings } from './settings.ts';

describe('--ban-hold-ms and --max-held-bans', () => {
  it('leave the options to their defaults when not given', () => {
    expect(readSettings([], {}).banHold).toEqual({});
  });

  it('become banHoldMs and maxHeldBans, 0 turning the hold off', () => {
    expect(readSettings(['--ban-hold-ms', '0', '--max-held-bans=50'], {}).banHold).toEqual({ banHoldMs: 0, maxHeldBans: 50 });
  });

  it.each([
    [['--ban-hold-ms', '1.5'], '--ban-hold-ms must be a whole number from 0, got "1.5"'],
    [['--ban-hold-ms=-1'], '--ban-hold-ms must be a whole number from 0, got "-1"'],
    [['--max-held-bans', '0'], '--max-held-bans must be a whole number from 1, got "0"'],
  ])('refuse %j', (argv, message) => {
    expect(() => readSettings(argv, {})).toThrow(message);
  });
});
