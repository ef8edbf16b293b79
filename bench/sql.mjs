// `node bench/sql.mjs [--quick]`: bundles bench/sql.ts with esbuild (Node 20 cannot run TypeScript) and runs it.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

// Written beside the sources so the bundle resolves the project's node_modules (git ignores it).
const outfile = resolve('bench/.sql.bundle.mjs');
await build({ entryPoints: ['bench/sql.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'error' });
await import(pathToFileURL(outfile).href);
