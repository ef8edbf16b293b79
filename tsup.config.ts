/** Build: ESM + .d.ts for every public entry, a CommonJS door (.cjs + .d.cts) to all but the storage suites, the command, the worker and site `init` writes, and the offline demo's browser bundles. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { tokenizer } from 'acorn';
import { transform } from 'esbuild';
import { defineConfig, type Options } from 'tsup';
import { dashboardEsbuildPlugin } from './scripts/dashboard-assets.ts';
import { prebuiltOpenApiPlugin } from './scripts/prebuilt-openapi.ts';

/** One public entry as package.json's `exports` lists it: the source it is built from and its name under dist/. */
interface Entry {
  readonly source: string;
  readonly require?: unknown;
}

/**
 * The entries, read from package.json's `exports`, the one place they are written: each names its
 * source (the `source` condition, which tsc also resolves the package's own name through) and
 * whether it has a CommonJS door (`require`). `./node` is built as `dist/node/index.js`.
 */
const exportsMap = JSON.parse(readFileSync('package.json', 'utf8')).exports as Record<string, Entry | string>;
const entries = Object.entries(exportsMap).flatMap(([subpath, entry]) =>
  typeof entry === 'string'
    ? []
    : [{ name: subpath === '.' ? 'index' : `${subpath.slice(2)}/index`, source: entry.source.slice(2), dual: entry.require !== undefined }],
);
/** Entries with a CommonJS form too. */
const dualEntries = Object.fromEntries(entries.filter((entry) => entry.dual).map(({ name, source }) => [name, source]));
/** The storage suites import vitest, which is ESM only: a require() form could never load. */
const esmEntries = Object.fromEntries(entries.map(({ name, source }) => [name, source]));
/** The command is the ESM bin `dist/cli/index.js`; nothing imports it, so no types and no CommonJS. */
const cli = { 'cli/index': 'cli/index.ts' };

/** `petstore-service --version` prints the version it was built from, wherever the package is installed. */
const define = { __PETSTORE_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) };

/** The library as published. */
const library: Options = {
  // Shared chunks keep one copy of the core, so ApiError is the same class from every entry.
  splitting: true,
  target: 'node20',
  platform: 'neutral',
  // No source maps in the package: they were 47 % of it, and the code they map is readable JS:
  // names and lines as written, its syntax shortened (constants folded, dead branches dropped),
  // which keeps the package within its budget (test/package/package.test.ts).
  sourcemap: false,
  minifySyntax: true,
  define,
  // The admin API serves the dashboard from strings: its client, bundled now (scripts/dashboard-assets.ts).
  esbuildPlugins: [dashboardEsbuildPlugin()],
};

/** Code for browsers: one file with every dependency in it, minified. */
const browserBundle: Options = { platform: 'browser', target: 'es2022', noExternal: [/.*/], minify: true };

/**
 * What `petstore-service init` copies after a line of options: the service worker as one classic
 * script (every browser with service workers runs those), published without a map.
 */
const workerTemplate: Options = {
  ...browserBundle,
  entry: { 'petstore-service-worker': 'runtimes/service-worker/worker.ts' },
  outDir: 'dist/worker',
  format: ['iife'],
  outExtension: () => ({ js: '.js' }),
  sourcemap: false,
  // Its callers are the page's browser, never behind a proxy: no address warnings; its one caller's
  // flood starves no one else: no ban holds (src/api.ts).
  define: { ...define, 'globalThis.__PETSTORE_WITHOUT_ADDRESS_WARNINGS__': 'true', 'globalThis.__PETSTORE_WITHOUT_BAN_HOLD__': 'true' },
  // The document's JSON Schemas converted now, not in the browser: no converter in the worker (scripts/prebuilt-openapi.ts).
  esbuildPlugins: [prebuiltOpenApiPlugin],
};

/**
 * What `petstore-service init` writes beside the worker for a site (dist/site/, published): start()
 * of petstore-service/browser as one ES module with nothing left to resolve, so a page imports it by
 * a relative URL with no bundler, and the demo page from cli/site/, copied as it is.
 */
const siteTemplate: Options = {
  ...browserBundle,
  entry: { 'petstore-service-browser': 'runtimes/browser/index.ts' },
  outDir: 'dist/site',
  format: ['esm'],
  splitting: false,
  outExtension: () => ({ js: '.js' }),
  sourcemap: false,
  publicDir: 'cli/site',
  // The HAR a page makes names the version it was built from (controls/journal/journal-har.ts).
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
      'petstore-service/service-worker': `./${esmEntries['service-worker/index']}`,
      'petstore-service/browser': `./${esmEntries['browser/index']}`,
      'petstore-service/idb': `./${esmEntries['idb/index']}`,
      'petstore-service': `./${esmEntries.index}`,
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
  esbuildPlugins: [dashboardEsbuildPlugin()],
};

/**
 * The command's own code (dist/cli/index.js) without its whitespace: nothing imports it, so no one
 * reads it as a library, and a stack trace of it still names its functions. 12 kB of the budget.
 */
async function minifyCommand(): Promise<void> {
  const file = 'dist/cli/index.js';
  writeFileSync(file, (await transform(readFileSync(file, 'utf8'), { minifyWhitespace: true, format: 'esm', target: 'node20' })).code);
}

/**
 * The lines of `code` that are a comment no reader of the package needs, as [start, end) ranges:
 * the TSDoc esbuild copies from the sources onto class members (the .d.ts has it, where editors
 * show it), and the `// path/of/module.ts` line it writes before each module's code (a function's
 * name, kept, finds it in the repository). The comments that say why stay, as do esbuild's
 * `@__PURE__` annotations and legal comments. 6,329 B of the package's budget when it came in
 * (1,933 of TSDoc, 4,396 of paths).
 */
function unneededCommentLines(code: string): [number, number][] {
  const ranges: [number, number][] = [];
  const onComment = (block: boolean, text: string, start: number, end: number) => {
    const unneeded = block ? text.startsWith('*') && !/[@#]__PURE__|@license|@preserve/.test(text) : /^ [\w@./-]+\.[cm]?[jt]sx?$/.test(text);
    const lineStart = code.lastIndexOf('\n', start - 1) + 1;
    if (unneeded && /^[ \t]*$/.test(code.slice(lineStart, start)) && code[end] === '\n') ranges.push([lineStart, end + 1]);
  };
  // Reading every token is what makes the tokenizer report every comment.
  Array.from(tokenizer(code, { ecmaVersion: 'latest', sourceType: 'module', onComment }));
  return ranges;
}

/**
 * `code` indented with a tab for each two spaces esbuild writes: every line, name and string as
 * they were (a line inside a template literal is left alone, its spaces being its text), 9.7 kB
 * less of the package's budget than two spaces a level (test/package/package.test.ts).
 */
function tabIndented(code: string): string {
  const inTemplate: [number, number][] = [];
  for (const token of tokenizer(code, { ecmaVersion: 'latest', sourceType: 'module' })) {
    if (token.type.label === 'template') inTemplate.push([token.start, token.end]);
  }
  let at = 0;
  return code.replace(/^( +)/gm, (spaces: string, _run: string, offset: number) => {
    while (inTemplate[at] && inTemplate[at]![1] < offset) at++;
    const span = inTemplate[at];
    if (span && span[0] < offset) return spaces;
    return '\t'.repeat(spaces.length >> 1) + (spaces.length & 1 ? ' ' : '');
  });
}

/** `code` as the package ships it: without its {@link unneededCommentLines}, then {@link tabIndented}. */
function shipped(code: string): string {
  let out = code;
  for (const [start, end] of unneededCommentLines(code).reverse()) out = out.slice(0, start) + out.slice(end);
  return tabIndented(out);
}

/** The library's ES modules (its chunks and each entry's index.js), made {@link shipped} in place. */
function shipLibrary(): void {
  const files = [
    ...readdirSync('dist')
      .filter((name) => name.endsWith('.js'))
      .map((name) => `dist/${name}`),
    ...Object.keys(esmEntries).map((name) => `dist/${name}.js`),
  ];
  for (const file of files) if (existsSync(file)) writeFileSync(file, shipped(readFileSync(file, 'utf8')));
}

/**
 * Each .cjs is one line that require()s the ES module beside it. Node >= 20.19 (our engines) loads
 * ES modules with require(), which a separate CommonJS build needed anyway for @noble/hashes 2
 * (ESM only); one copy of the code halves the package and makes ApiError one class for import and
 * require alike. Types stay a real CommonJS .d.cts, as TypeScript's node16 resolution wants.
 */
async function writeCommonJsEntries(): Promise<void> {
  await minifyCommand();
  shipLibrary();
  for (const name of Object.keys(dualEntries)) {
    const file = `dist/${name}.cjs`;
    mkdirSync(dirname(file), { recursive: true });
    // No 'use strict': a file whose one statement is the require has nothing it would change.
    writeFileSync(file, "module.exports = require('./index.js');\n");
  }
}

export default defineConfig(
  process.env.npm_lifecycle_event === 'prestart'
    ? [startOnly]
    : [
        { ...library, entry: { ...esmEntries, ...cli }, format: ['esm'], dts: { entry: esmEntries }, onSuccess: writeCommonJsEntries },
        // The CommonJS types repeat the ESM ones without their TSDoc, which keeps the package within its budget (test/package/package.test.ts);
        // editors show the docs from the ESM declarations, which every TypeScript project can resolve.
        { ...library, entry: dualEntries, format: ['cjs'], dts: { entry: dualEntries, only: true, compilerOptions: { removeComments: true } } },
        // A classic (non-module) worker script runs in every browser with service workers.
        {
          ...demoBundle,
          entry: { sw: 'examples/offline-demo/sw.ts' },
          format: ['iife'],
          outExtension: () => ({ js: '.js' }),
          publicDir: 'examples/offline-demo/public',
        },
        {
          ...demoBundle,
          entry: { idb: 'examples/offline-demo/idb.ts', app: 'examples/offline-demo/app.ts' },
          format: ['esm'],
          splitting: false,
          outExtension: () => ({ js: '.js' }),
        },
        workerTemplate,
        siteTemplate,
      ],
);
