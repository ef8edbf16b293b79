/** readSettings on --ban-hold-ms, and on the variables a container is configured by (PETSTORE_DATA, PETSTORE_GENERATE): what each becomes, which wins, and what is refused by its name. */
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

describe('PETSTORE_DATA', () => {
  it('keeps pets and limits in PGlite in that directory, as --data does', () => {
    expect(readSettings([], { PETSTORE_DATA: '/data' }).stores).toEqual({ data: '/data' });
  });

  it('counts as unset when empty, as every variable does', () => {
    expect(readSettings([], { PETSTORE_DATA: '' }).stores.data).toBeUndefined();
  });

  it('yields to --data and to --database-url: flags win over the environment', () => {
    expect(readSettings(['--data', './here'], { PETSTORE_DATA: '/data' }).stores.data).toBe('./here');
    const { stores } = readSettings(['--database-url', 'postgres://db.internal/petstore'], { PETSTORE_DATA: '/data' });
    expect(stores.data).toBeUndefined();
    expect(stores.database?.from).toBe('--database-url');
  });

  it('is refused beside DATABASE_URL, naming both variables', () => {
    expect(() => readSettings([], { PETSTORE_DATA: '/data', DATABASE_URL: 'postgres://db.internal/petstore' })).toThrow(
      'PETSTORE_DATA and DATABASE_URL cannot be used together: pick PGlite in a directory or a PostgreSQL server',
    );
  });

  it('is refused beside the admin API, which resets in-memory stores only', () => {
    expect(() => readSettings([], { PETSTORE_DATA: '/data', PETSTORE_ADMIN_TOKEN: 'my-admin-token-0123' })).toThrow(
      'PETSTORE_ADMIN_TOKEN works with the in-memory stores only',
    );
  });
});

describe('PETSTORE_GENERATE', () => {
  it('starts with generated pets, as --generate does', () => {
    expect(readSettings([], { PETSTORE_GENERATE: '25:7' }).generate).toEqual({ count: 25, seed: 7 });
    expect(readSettings([], { PETSTORE_GENERATE: '20' }).generate).toEqual({ count: 20, seed: 1 });
  });

  it('yields to --generate', () => {
    expect(readSettings(['--generate', '3'], { PETSTORE_GENERATE: '25:7' }).generate).toEqual({ count: 3, seed: 1 });
  });

  it('is refused by its own name when it cannot be a count and a seed', () => {
    expect(() => readSettings([], { PETSTORE_GENERATE: 'lots' })).toThrow(
      'PETSTORE_GENERATE must be COUNT or COUNT:SEED, a count from 1 to 10000 and a seed from 0 to 4294967295, e.g. --generate 25:7, got "lots"',
    );
  });
});
