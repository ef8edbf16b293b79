// Size of the service worker `petstore-service init --worker-only` writes (after `npm run build`), and of the
// petstore-service/service-worker entry as a user's esbuild bundles it for the browser with all its dependencies.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The gzip -9 size of `code`, as BENCHMARKS.md and test/package/package.test.ts measure it. */
const gzipBytes = (code) => gzipSync(code, { level: 9 }).byteLength;

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
