/**
 * The dashboard's files (controls/dashboard/client/) made into the module that stands in for
 * controls/dashboard/dashboard-assets.ts: its script bundled and minified by esbuild, its styles
 * minified, its HTML shell and icon as they are. One implementation for the package's build
 * (tsup.config.ts, as an esbuild plugin) and for tests run from the sources (vitest.config.ts, as a
 * vite plugin), so both serve the page as it is now and the user never builds anything.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, transform, type Plugin } from 'esbuild';

/** Where the page's files are, from the repository's root. */
const CLIENT = 'controls/dashboard/client';
/** The files read besides the script's entry (main.ts, whose imports esbuild follows). */
const FILES = { html: 'index.html', styles: 'dashboard.css', favicon: 'favicon.svg' } as const;
/** The module replaced: what tsc and editors read is its stand-in for an unbuilt checkout. */
const REPLACED = /controls[\\/]dashboard[\\/]dashboard-assets\.ts$/;

/** The made module, kept while no file of the page changes (vitest asks once per test file's graph). */
let made: { readonly key: string; readonly module: Promise<string> } | undefined;

/** A key that changes when any file of the client folder's top level changes. */
function versionOf(root: string): string {
  return ['main.ts', ...Object.values(FILES)].map((name) => statSync(resolve(root, CLIENT, name)).mtimeMs).join();
}

/**
 * The JavaScript of the dashboard-assets module: `DASHBOARD_ASSETS` with the page's HTML, its
 * script as one minified ES module (every import bundled), its minified styles and its icon.
 *
 * @example
 * const source = await dashboardAssetsModule(); // 'export const DASHBOARD_ASSETS = {"html":"<!doctype html>…'
 */
export function dashboardAssetsModule(root = process.cwd()): Promise<string> {
  const key = versionOf(root);
  if (made?.key !== key) made = { key, module: makeModule(root) };
  return made.module;
}

async function makeModule(root: string): Promise<string> {
  const read = (name: string) => readFileSync(resolve(root, CLIENT, name), 'utf8');
  const bundled = await build({
    entryPoints: [resolve(root, CLIENT, 'main.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    write: false,
  });
  const styles = await transform(read(FILES.styles), { loader: 'css', minify: true });
  const assets = { html: read(FILES.html), script: bundled.outputFiles[0]!.text, styles: styles.code, favicon: read(FILES.favicon) };
  return `export const DASHBOARD_ASSETS = ${JSON.stringify(assets)};\n`;
}

/**
 * For tsup (esbuild): loads the made module in place of controls/dashboard/dashboard-assets.ts.
 *
 * @example
 * const library: Options = { esbuildPlugins: [dashboardEsbuildPlugin()] };
 */
export function dashboardEsbuildPlugin(): Plugin {
  return {
    name: 'petstore-dashboard-assets',
    setup(esbuild) {
      esbuild.onLoad({ filter: REPLACED }, async () => ({ contents: await dashboardAssetsModule(), loader: 'js' }));
    },
  };
}

/**
 * For vitest (vite): the same, so a test of the sources serves the page as the package would.
 *
 * @example
 * export default defineConfig({ plugins: [dashboardVitePlugin()] });
 */
export function dashboardVitePlugin() {
  return {
    name: 'petstore-dashboard-assets',
    enforce: 'pre' as const,
    load: (id: string) => (REPLACED.test(id.split('?')[0]!) ? dashboardAssetsModule() : undefined),
  };
}
