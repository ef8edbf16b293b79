/** Keeps src/ loadable by every runtime. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)]));
}

describe('src/', () => {
  it('imports nothing from node: and uses no Node-only globals (tsconfig.core.json type-checks it without Node types)', () => {
    for (const file of sourceFiles('src')) {
      const text = readFileSync(file, 'utf8');
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect([file, /from ['"]node:|import\(['"]node:|require\(|\bBuffer\b|\bprocess\./.test(code)]).toEqual([file, false]);
    }
  });
});
