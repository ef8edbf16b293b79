// @ts-check
/**
 * `npm run example:workers`: worker.js on local workerd through Miniflare, with wrangler.toml's
 * bindings; no Cloudflare account and no network. Reads PORT, PETSTORE_API_KEYS, PETSTORE_DATA
 * (a folder where D1 and the Durable Objects keep their state across restarts; unset: in memory)
 * and PETSTORE_ADMIN_TOKEN (a fake backend with the admin API).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions as workerOptionsOf } from 'wrangler';
import { WORKERD_BUILD } from './workerd-build.mjs';

const config = join(dirname(fileURLToPath(import.meta.url)), 'wrangler.toml');
const { workerOptions, main } = workerOptionsOf(config);
if (!main) throw new Error(`${config} names no main module`);

// What wrangler does before it runs a Worker: one ES module with its imports in it.
const { outputFiles } = await build({ ...WORKERD_BUILD, entryPoints: [main] });

const data = process.env.PETSTORE_DATA ? resolve(process.env.PETSTORE_DATA) : undefined;
const miniflare = new Miniflare({
  ...workerOptions,
  modules: [{ type: 'ESModule', path: main, contents: outputFiles[0]?.text ?? '' }],
  bindings: {
    ...workerOptions.bindings,
    PETSTORE_API_KEYS: process.env.PETSTORE_API_KEYS ?? 'demo-key:free',
    ...(process.env.PETSTORE_ADMIN_TOKEN ? { PETSTORE_ADMIN_TOKEN: process.env.PETSTORE_ADMIN_TOKEN } : {}),
  },
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  // A placeholder request.cf: the real one is fetched from Cloudflare, and this runs offline.
  cf: false,
  d1Persist: data ? join(data, 'd1') : false,
  durableObjectsPersist: data ? join(data, 'durable-objects') : false,
});
const url = await miniflare.ready;
console.log(`listening on http://127.0.0.1:${url.port}/api/v1`);

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => void miniflare.dispose().then(() => process.exit(0)));
}
