/** container/Dockerfile installs the store drivers at the ranges the storage suites test them at (package.json's devDependencies), so the image ships what was tested. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> };

describe('the image', () => {
  it("installs PGlite and postgres at package.json's tested ranges", () => {
    const drivers = /^ARG DRIVERS="([^"]*)"$/m.exec(readFileSync('container/Dockerfile', 'utf8'))?.[1]?.split(' ');
    expect(drivers).toEqual(['@electric-sql/pglite', 'postgres'].map((name) => `${name}@${pkg.devDependencies[name]}`));
  });
});
