/** `--metrics` in the command: how it is asked for, which request targets it answers, and how a missing package is named. */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { installLine, isMetricsTarget, missingPackage } from './metrics.ts';
import { readSettings } from './settings.ts';

describe('--metrics and PETSTORE_METRICS', () => {
  it('is off unless asked for, by the flag or by the variable set to 1 or true in any case', () => {
    expect(readSettings([], {}).metrics).toBe(false);
    expect(readSettings(['--metrics'], {}).metrics).toBe(true);
    for (const on of ['1', 'true', 'TRUE', ' True ']) expect(readSettings([], { PETSTORE_METRICS: on }).metrics, on).toBe(true);
    for (const off of ['0', 'false', 'False', '']) expect(readSettings([], { PETSTORE_METRICS: off }).metrics, off).toBe(false);
  });

  it('takes the flag over the variable, and refuses a variable it cannot read, naming it', () => {
    expect(readSettings(['--metrics'], { PETSTORE_METRICS: '0' }).metrics).toBe(true);
    expect(() => readSettings([], { PETSTORE_METRICS: 'yes' })).toThrow(
      'PETSTORE_METRICS must be 1 or true to turn it on, 0 or false to leave it off, got "yes"',
    );
    expect(() => readSettings(['--metrics=1'], {})).toThrow('--metrics takes no value');
    expect(() => readSettings(['--metric'], {})).toThrow('unknown option --metric; did you mean --metrics?');
  });
});

describe('the metrics path', () => {
  it.each([
    ['/metrics', true],
    ['/metrics?name[]=http_server_request_duration_seconds', true],
    ['/metrics/', false],
    ['/metricsz', false],
    ['/v1/metrics', false],
    ['/METRICS', false],
    [undefined, false],
  ])('%s is answered by --metrics: %s', (target, answered) => {
    expect(isMetricsTarget(target)).toBe(answered);
  });
});

describe('a package --metrics cannot load', () => {
  it('is the package Node could not find, scoped or not, with a subpath or not', async () => {
    for (const [specifier, name] of [
      ['@opentelemetry/not-installed-here', '@opentelemetry/not-installed-here'],
      ['@opentelemetry/not-installed-here/sub', '@opentelemetry/not-installed-here'],
      ['not-installed-here', 'not-installed-here'],
    ]) {
      const error = await import(specifier!).catch((caught: unknown) => caught);
      expect(missingPackage(error), specifier).toBe(name);
    }
  });

  it('is the package a CommonJS package could not require, and none for a missing file', () => {
    const required = (specifier: string) => {
      try {
        createRequire(import.meta.url)(specifier);
      } catch (error) {
        return missingPackage(error);
      }
      return 'found';
    };
    expect(required('@opentelemetry/not-installed-here/sub')).toBe('@opentelemetry/not-installed-here');
    expect(required('not-installed-here')).toBe('not-installed-here');
    expect(required('./not-here.js')).toBeUndefined();
    expect(required('/not/here.js')).toBeUndefined();
  });

  it('is none for any other failure', () => {
    expect(missingPackage(new Error("Cannot find package 'x'"))).toBeUndefined();
    expect(missingPackage(Object.assign(new Error('Cannot find module /a/b.js'), { code: 'ERR_MODULE_NOT_FOUND' }))).toBeUndefined();
    expect(missingPackage(undefined)).toBeUndefined();
  });

  it('is named with the others in one line for npm install', () => {
    expect(installLine(['@opentelemetry/sdk-metrics', '@opentelemetry/host-metrics'], '--metrics')).toBe(
      'install @opentelemetry/sdk-metrics @opentelemetry/host-metrics to use --metrics',
    );
  });
});
