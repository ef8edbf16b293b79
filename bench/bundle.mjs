// Size of the service worker `petstore-service init --worker-only` writes (after `npm run build`), of the
// petstore-service/service-worker entry as a user's esbuild bundles it for the browser with all its dependencies,
// and of the dashboard page the admin API serves.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The size of `code` through `gzip -9`, the command issue #48 names, as test/package/package.test.ts
 * measures it too (GNU gzip; zlib's level 9 writes about 0.7 % more of the worker).
 */
const gzipBytes = (code) => execFileSync('gzip', ['-9', '-c'], { input: code }).byteLength;

export async function serviceWorkerBundle() {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-bench-worker-'));
  try {
    execFileSync(process.execPath, ['dist/cli/index.js', 'init', folder, '--worker-only'], { stdio: 'ignore' });
    const written = readFileSync(join(folder, 'petstore-service-worker.js'));
    const { outputFiles } = await build({
      entryPoints: ['runtimes/service-worker/index.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
    });
    const entry = outputFiles[0].contents;
    return { minBytes: written.byteLength, gzipBytes: gzipBytes(written), entryMinBytes: entry.byteLength, entryGzipBytes: gzipBytes(entry) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The dashboard's files as the built library serves them at /__admin/: bytes, and bytes through gzip -9. */
export async function dashboardFiles() {
  const { createPetStore } = await import('../dist/index.js');
  const store = createPetStore({ admin: { token: 'bench-admin-token-0123456789' } });
  const sizes = {};
  for (const file of ['', 'dashboard.js', 'dashboard.css', 'favicon.svg']) {
    const body = Buffer.from(await (await store.fetch(`http://localhost/__admin/${file}`)).arrayBuffer());
    sizes[file || 'index.html'] = { bytes: body.byteLength, gzipBytes: gzipBytes(body) };
  }
  return sizes;
}
