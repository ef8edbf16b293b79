/** `npm run bench` is run by hand, not by CI: every script it may load must at least parse, so a broken one shows here first. */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const scripts = ['bench', 'bench/peers', 'bench/runtimes', 'bench/workers'].flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.mjs') && !name.startsWith('.'))
    .map((name) => `${dir}/${name}`),
);

describe('the bench scripts', () => {
  it('are found', () => {
    expect(scripts).toContain('bench/index.mjs');
  });

  it.each(scripts)('%s parses', (script) => {
    expect(() => execFileSync(process.execPath, ['--check', script], { stdio: 'pipe' })).not.toThrow();
  });
});
