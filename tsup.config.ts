/** Build: ESM + CJS + .d.ts for every public entry, one shared chunk for the core. */
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    'src/index': 'src/index.ts',
    'adapters/node/index': 'adapters/node/index.ts',
    'adapters/node/cli': 'adapters/node/cli.ts',
    'adapters/deno/index': 'adapters/deno/index.ts',
    'adapters/bun/index': 'adapters/bun/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: {
    entry: {
      'src/index': 'src/index.ts',
      'adapters/node/index': 'adapters/node/index.ts',
      'adapters/deno/index': 'adapters/deno/index.ts',
      'adapters/bun/index': 'adapters/bun/index.ts',
    },
  },
  // Shared chunks keep one copy of the core, so ApiError is the same class from every entry.
  splitting: true,
  target: 'node20',
  platform: 'neutral',
  clean: true,
  sourcemap: true,
});
