// Size of the petstore-service/service-worker entry bundled for the browser with all its dependencies.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export async function serviceWorkerBundle() {
  const { outputFiles } = await build({
    entryPoints: ['runtimes/service-worker/index.ts'],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  const code = outputFiles[0].contents;
  return { minBytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
}
