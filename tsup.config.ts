/** Build: ESM + CJS + .d.ts for every public entry, and the offline demo's browser bundles. */
import { defineConfig, type Options } from 'tsup';

const entries = {
  'src/index': 'src/index.ts',
  'adapters/node/index': 'adapters/node/index.ts',
  'adapters/deno/index': 'adapters/deno/index.ts',
  'adapters/bun/index': 'adapters/bun/index.ts',
  'adapters/idb/index': 'adapters/idb/index.ts',
  'adapters/service-worker/index': 'adapters/service-worker/index.ts',
  'adapters/testing/index': 'adapters/testing/index.ts',
  'adapters/redis/index': 'adapters/redis/index.ts',
  'src/conformance/index': 'src/conformance/index.ts',
};

/** The demo imports the package by name, as a user would; the bundle takes it from source. */
const demoBundle: Options = {
  outDir: 'dist/offline-demo',
  platform: 'browser',
  target: 'es2022',
  noExternal: [/.*/],
  minify: true,
  sourcemap: true,
  esbuildOptions(options) {
    options.alias = {
      'petstore-service/service-worker': './adapters/service-worker/index.ts',
      'petstore-service/idb': './adapters/idb/index.ts',
      'petstore-service': './src/index.ts',
    };
  },
};

/** `npm start` needs only the command: one ESM bundle, no types, no demo (about a second). */
const startOnly: Options = {
  entry: { 'adapters/node/cli': 'adapters/node/cli.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  silent: true,
};

export default defineConfig(process.env.npm_lifecycle_event === 'prestart' ? [startOnly] : [
  {
    entry: { ...entries, 'adapters/node/cli': 'adapters/node/cli.ts' },
    format: ['esm', 'cjs'],
    dts: { entry: entries },
    // Shared chunks keep one copy of the core, so ApiError is the same class from every entry.
    splitting: true,
    target: 'node20',
    platform: 'neutral',
    sourcemap: true,
  },
  // A classic (non-module) worker script runs in every browser with service workers.
  { ...demoBundle, entry: { sw: 'examples/offline-demo/sw.ts' }, format: ['iife'], outExtension: () => ({ js: '.js' }), publicDir: 'examples/offline-demo/public' },
  { ...demoBundle, entry: { idb: 'examples/offline-demo/idb.ts' }, format: ['esm'], outExtension: () => ({ js: '.js' }) },
]);
