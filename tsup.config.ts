/** Build: ESM + .d.ts for every public entry, a CommonJS door (.cjs + .d.cts) to all but the storage suites, the command, the worker `init` writes, and the offline demo's browser bundles. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { defineConfig, type Options } from 'tsup';

/** Entries with a CommonJS form too. */
const dualEntries = {
  'src/index': 'src/index.ts',
  'adapters/node/index': 'adapters/node/index.ts',
  'adapters/deno/index': 'adapters/deno/index.ts',
  'adapters/bun/index': 'adapters/bun/index.ts',
  'adapters/idb/index': 'adapters/idb/index.ts',
  'adapters/service-worker/index': 'adapters/service-worker/index.ts',
  'adapters/browser/index': 'adapters/browser/index.ts',
  'adapters/testing/index': 'adapters/testing/index.ts',
  'adapters/redis/index': 'adapters/redis/index.ts',
  'adapters/sql/index': 'adapters/sql/index.ts',
};
/** The storage suites import vitest, which is ESM only: a require() form could never load. */
const esmEntries = { ...dualEntries, 'src/conformance/index': 'src/conformance/index.ts' };
/** The command is the ESM bin `dist/adapters/node/cli.js`; nothing imports it, so no types and no CommonJS. */
const cli = { 'adapters/node/cli': 'adapters/node/cli.ts' };

/** `petstore-service --version` prints the version it was built from, wherever the package is installed. */
const define = { __PETSTORE_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) };

/** The library as published. */
const library: Options = {
  // Shared chunks keep one copy of the core, so ApiError is the same class from every entry.
  splitting: true,
  target: 'node20',
  platform: 'neutral',
  // No source maps in the package: they were 47 % of it, and the code they map is readable, unminified JS.
  sourcemap: false,
  define,
};

/** Code for browsers: one file with every dependency in it, minified. */
const browserBundle: Options = { platform: 'browser', target: 'es2022', noExternal: [/.*/], minify: true };

/**
 * What `petstore-service init` copies after a line of options: the service worker as one classic
 * script (every browser with service workers runs those), published without a map.
 */
const workerTemplate: Options = {
  ...browserBundle,
  entry: { 'petstore-service-worker': 'adapters/service-worker/worker.ts' },
  outDir: 'dist/worker',
  format: ['iife'],
  outExtension: () => ({ js: '.js' }),
  sourcemap: false,
  define,
};

/** The demo imports the package by name, as a user would; the bundle takes it from source. */
const demoBundle: Options = {
  ...browserBundle,
  outDir: 'dist/offline-demo',
  // Not published (package.json `files` leaves dist/offline-demo out): maps only help debug it in a local browser.
  sourcemap: true,
  esbuildOptions(options) {
    options.alias = {
      'petstore-service/service-worker': './adapters/service-worker/index.ts',
      'petstore-service/browser': './adapters/browser/index.ts',
      'petstore-service/idb': './adapters/idb/index.ts',
      'petstore-service': './src/index.ts',
    };
  },
};

/** `npm start` needs only the command: one ESM bundle, no types, no demo (about a second). */
const startOnly: Options = {
  entry: cli,
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  silent: true,
  define,
};

/**
 * Each .cjs is one line that require()s the ES module beside it. Node >= 20.19 (our engines) loads
 * ES modules with require(), which a separate CommonJS build needed anyway for @noble/hashes 2
 * (ESM only); one copy of the code halves the package and makes ApiError one class for import and
 * require alike. Types stay a real CommonJS .d.cts, as TypeScript's node16 resolution wants.
 */
async function writeCommonJsEntries(): Promise<void> {
  for (const name of Object.keys(dualEntries)) {
    const file = `dist/${name}.cjs`;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "'use strict';\nmodule.exports = require('./index.js');\n");
  }
}

export default defineConfig(process.env.npm_lifecycle_event === 'prestart' ? [startOnly] : [
  { ...library, entry: { ...esmEntries, ...cli }, format: ['esm'], dts: { entry: esmEntries }, onSuccess: writeCommonJsEntries },
  // The CommonJS types repeat the ESM ones without their TSDoc, which keeps the package within its budget (test/package.test.ts);
  // editors show the docs from the ESM declarations, which every TypeScript project can resolve.
  { ...library, entry: dualEntries, format: ['cjs'], dts: { entry: dualEntries, only: true, compilerOptions: { removeComments: true } } },
  // A classic (non-module) worker script runs in every browser with service workers.
  { ...demoBundle, entry: { sw: 'examples/offline-demo/sw.ts' }, format: ['iife'], outExtension: () => ({ js: '.js' }), publicDir: 'examples/offline-demo/public' },
  { ...demoBundle, entry: { idb: 'examples/offline-demo/idb.ts', app: 'examples/offline-demo/app.ts' }, format: ['esm'], splitting: false, outExtension: () => ({ js: '.js' }) },
  workerTemplate,
]);
