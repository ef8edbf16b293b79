/** The command's --help text: what it tells an operator beyond the flags' own lines. */
import { describe, expect, it } from 'vitest';
import { HELP } from './help.ts';

describe('--help', () => {
  it('names the environment variable of every secret a flag can take, for use beyond your own machine', () => {
    const advice = HELP.slice(HELP.indexOf('Flags show in ps'));
    expect(advice.replace(/\s+/g, ' ')).toMatch(/PETSTORE_API_KEYS, PETSTORE_ADMIN_TOKEN and PETSTORE_METRICS_TOKEN anywhere but your own machine/);
  });
});
