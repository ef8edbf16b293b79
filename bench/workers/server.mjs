// One Worker on local workerd for the Workers rows: `node bench/workers/server.mjs <kind> <key>` prints "ready <port>".
// Kinds: petstore (createPetStore in a Worker) and hono (the Hono peer as a Worker), both over the same
// seeded memory stores, as the Deno and Bun rows; d1 (petStoreWorker: pets in D1, limits in Durable
// Objects), seeded with the same 100 pets through its API.
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { WORKERD_BUILD } from '../../examples/mount/workers/workerd-build.mjs';

const [kind, KEY] = process.argv.slice(2);
/** Pets seeded in every store, as bench/http-server.mjs seeds them: the first page carries `Link: rel="next"`. */
const SEEDED = 100;

const MEMORY = `
import { memoryLimitStore, memoryPetStorage } from 'petstore-service/storage';
const storage = memoryPetStorage();
// Plain promises, no I/O: each request may wait on the one the first made.
const seeded = (async () => {
  for (let i = 1; i <= ${SEEDED}; i++) await storage.create({ name: \`pet \${i}\`, categoryId: i % 5, status: 'available' });
})();
const sameWork = { storage, limitStore: memoryLimitStore(), apiKeys: { ${JSON.stringify(KEY)}: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } } };
`;
const SCRIPTS = {
  petstore: `${MEMORY}
import { createPetStore } from 'petstore-service';
// Callers without a key are told apart by X-Real-IP, as behind a proxy, as in the other rows.
const petstore = createPetStore({ ...sameWork, clientAddress: (request) => request.headers.get('x-real-ip') ?? undefined, onError: () => {} });
export default { async fetch(request) { await seeded; return petstore.fetch(request); } };`,
  hono: `${MEMORY}
import { createApp } from './bench/peers/hono-app.mjs';
const app = createApp(sameWork);
export default { async fetch(request, env, ctx) { await seeded; return app.fetch(request, env, ctx); } };`,
  d1: `
import { petStoreWorker } from 'petstore-service/workers';
export { PetStoreLimits } from 'petstore-service/workers';
const petstore = petStoreWorker({ onError: () => {} });
export default petstore;
export const { PetStoreFake } = petstore;`,
};
if (!Object.hasOwn(SCRIPTS, kind)) throw new Error(`unknown Worker kind ${kind}; the kinds are ${Object.keys(SCRIPTS).join(', ')}`);

/** What petStoreWorker reads: keys, the D1 database, the Durable Object classes its script exports. */
const D1_BINDINGS = {
  bindings: { PETSTORE_API_KEYS: `${KEY}:enterprise:1000000000:1000000000` },
  d1Databases: { PETSTORE_DB: 'bench' },
  durableObjects: { PETSTORE_LIMITS: { className: 'PetStoreLimits', useSQLite: true }, PETSTORE_FAKE: { className: 'PetStoreFake', useSQLite: true } },
};

// The Hono peer hashes keys with node:crypto, as on Node, Deno and Bun: workerd gives it that under
// nodejs_compat, which all three get so that they run on the same runtime settings.
const { outputFiles } = await build({
  ...WORKERD_BUILD,
  external: [...WORKERD_BUILD.external, 'node:*'],
  stdin: { contents: SCRIPTS[kind], resolveDir: process.cwd(), loader: 'js' },
});
const miniflare = new Miniflare({
  modules: [{ type: 'ESModule', path: `${kind}.js`, contents: outputFiles[0].text }],
  compatibilityDate: '2025-07-01',
  compatibilityFlags: ['nodejs_compat'],
  cf: false,
  host: '127.0.0.1',
  port: 0,
  ...(kind === 'd1' ? D1_BINDINGS : {}),
  // bench/profile-workerd.mjs sets it to profile the Worker over the V8 inspector (Chrome DevTools Protocol).
  ...(process.env.WORKERD_INSPECTOR_PORT ? { inspectorPort: Number(process.env.WORKERD_INSPECTOR_PORT) } : {}),
});
const url = await miniflare.ready;
if (kind === 'd1') {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  for (let i = 1; i <= SEEDED; i++) {
    const body = JSON.stringify({ name: `pet ${i}`, categoryId: i % 5, status: 'available' });
    const response = await fetch(new URL('/v1/pets', url), { method: 'POST', headers, body });
    if (response.status !== 201) throw new Error(`seeding D1 answered ${response.status}: ${await response.text()}`);
  }
}
console.log(`ready ${url.port}`);
// Stopped with SIGTERM by bench/load.mjs: workerd, Miniflare's child, stops with it.
process.once('SIGTERM', () => void miniflare.dispose().then(() => process.exit(0)));
