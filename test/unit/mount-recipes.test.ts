/** Each mount recipe (examples/mount, shown byte for byte in docs/mounting.md: test/docs/pages.test.ts) stays within ten lines of code. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Each host's folder in examples/mount, and its file that marks the recipe region. */
const FILES: Record<string, string> = {
  express: 'express/index.js',
  fastify: 'fastify/index.js',
  koa: 'koa/index.js',
  hono: 'hono/index.js',
  node: 'node/index.js',
  deno: 'deno/server.ts',
  bun: 'bun/server.ts',
  workers: 'workers/worker.js',
};

/** The lines between `// #region recipe` and `// #endregion recipe`: what a reader copies. */
function recipe(file: string): string {
  const source = readFileSync(`examples/mount/${file}`, 'utf8');
  const region = /\/\/ #region recipe\n([\s\S]*?)\/\/ #endregion recipe\n/.exec(source);
  if (!region) throw new Error(`${file} marks no recipe region`);
  return region[1]!;
}

describe('the mount recipes', () => {
  it('are one per folder of examples/mount', () => {
    const folders = readdirSync('examples/mount', { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((folder) => folder.name).sort()).toEqual(Object.keys(FILES).sort());
  });

  it.each(Object.entries(FILES))('keeps the %s recipe to at most 10 lines of code past its imports', (_, file) => {
    const code = recipe(file)
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^\s*(import |\/\/|\/\*\*)/.test(line));
    expect(code.length).toBeLessThanOrEqual(10);
  });
});
