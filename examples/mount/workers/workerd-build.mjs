// @ts-check
/** How a Worker's modules become the one ES module workerd runs, as wrangler bundles them: shared by dev.mjs and the Workers tests. */

/**
 * esbuild settings: every import bundled, resolved under workerd's conditions (a package's
 * `workerd`, `worker` or `browser` build before its Node one), `cloudflare:` modules left to the runtime.
 * @satisfies {import('esbuild').BuildOptions}
 */
export const WORKERD_BUILD = {
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  external: ['cloudflare:*'],
  logLevel: 'warning',
};
