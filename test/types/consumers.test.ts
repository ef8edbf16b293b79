/** Consumers' type checks against the packed package: tsc on the fixture projects and the Node recipes, deno check, attw (node10 included). */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary, devBinary } from '../runtimes/processes.ts';

const FIXTURES = resolve('test/types/fixtures');
const DENO_RECIPE = resolve('examples/mount/deno/server.ts');
/** A full check with every declaration file takes seconds, longer with five at once. */
const TIMEOUT_MS = 180_000;

/** Runs a command to its end: its exit code and output, so a failure shows the checker's own messages. */
async function run(command: string, args: string[], cwd = '.'): Promise<{ code: number; stdout: string; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, output: `${stdout}${stderr}` };
  } catch (error) {
    const { code, stdout = '', stderr = '' } = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof code === 'number' ? code : 1, stdout, output: `${stdout}${stderr}` };
  }
}

let packDir: string;
let tarball: string;

// What npm publishes (dist/ as `npm test` just built it, filtered by `files`), installed where the
// fixtures resolve it: a real folder in node_modules, as npm leaves it, so both TypeScript and
// Deno resolve it as a dependency through its `exports`. Its own dependencies come from the
// repo's node_modules further up.
beforeAll(async () => {
  packDir = mkdtempSync(join(tmpdir(), 'petstore-pack-'));
  const npm = process.env.npm_execpath?.endsWith('.js') ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const packed = await run(npm[0]!, [...npm.slice(1), 'pack', '--silent', '--pack-destination', packDir]);
  expect(packed.code, packed.output).toBe(0);
  tarball = join(packDir, packed.stdout.trim().split('\n').at(-1)!);
  const installed = join(FIXTURES, 'node_modules/petstore-service');
  rmSync(installed, { recursive: true, force: true });
  mkdirSync(installed, { recursive: true });
  const extracted = await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  expect(extracted.code, extracted.output).toBe(0);
}, TIMEOUT_MS);
afterAll(() => rmSync(packDir, { recursive: true, force: true }));

describe.concurrent('consumers of the packed package type-check (strict, skipLibCheck: false)', () => {
  it.each([
    ['tsconfig.node16.json', 'core, node:http, /node, testing kit, Express, Fastify, Koa, Bun, CommonJS, Node recipes; module node16'],
    ['tsconfig.bundler.json', 'the same ES modules under module esnext, moduleResolution bundler'],
    ['tsconfig.hono-node16.json', 'Hono on @hono/node-server and the Hono recipe; node16'],
    ['tsconfig.hono-bundler.json', 'Hono on @hono/node-server and the Hono recipe; bundler'],
    ['tsconfig.worker.json', 'a service worker: WebWorker lib, no Node types'],
    ['tsconfig.workers.json', 'a Cloudflare Worker under @cloudflare/workers-types, and the Workers recipe'],
    ['tsconfig.playwright.json', 'a Playwright suite on petstore-service/playwright: its options, fixture and controls; node16 with the DOM lib'],
  ])('tsc -p %s (%s)', { timeout: TIMEOUT_MS }, async (project) => {
    const { code, output } = await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', join(FIXTURES, project)]);
    expect(code, output).toBe(0);
  });

  it('deno check: Deno.serve(petstore), its fetch as handler, a router passing the address', { timeout: TIMEOUT_MS }, async () => {
    const { code, output } = await run(await denoBinary(), ['check', 'deno/main.ts'], FIXTURES);
    expect(code, output).toBe(0);
  });

  // Checked as a Deno project has it: a copy next to the installed package, with Deno's default
  // options. From its own folder Deno would apply the repo's tsconfig.json, Node's libs included.
  it('deno check: the Deno recipe', { timeout: TIMEOUT_MS }, async () => {
    const copy = join(FIXTURES, 'deno/recipe.ts');
    copyFileSync(DENO_RECIPE, copy);
    try {
      const { code, output } = await run(await denoBinary(), ['check', 'deno/recipe.ts'], FIXTURES);
      expect(code, output).toBe(0);
    } finally {
      rmSync(copy, { force: true });
    }
  });

  // attw's default (strict) profile: node10 too, which sees the subpaths through `typesVersions` (one pattern: `./node` is dist/node/index.d.ts; anything else, the root's types and package.json, as it is).
  // The one expected finding: the storage suites are ESM only (vitest is), so a require() of them
  // resolves to nothing, on purpose.
  it('attw: no problem under node10, node16 (from ESM and CJS) or bundler resolution, but no require() of the ESM-only storage suites', {
    timeout: TIMEOUT_MS,
  }, async () => {
    // Into a file: attw exits as soon as it has written, and a pipe would lose the end of its report.
    const report = join(packDir, 'attw.json');
    const fd = openSync(report, 'w');
    await once(spawn(devBinary('attw'), [tarball, '--format', 'json'], { stdio: ['ignore', fd, 'inherit'] }), 'exit');
    closeSync(fd);
    const { analysis } = JSON.parse(readFileSync(report, 'utf8')) as { analysis: { problems: unknown[]; entrypoints: Record<string, unknown> } };
    // Every entry of package.json's exports was analysed, none missed.
    const exported = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).exports as object);
    expect(Object.keys(analysis.entrypoints).sort()).toEqual(exported.sort());
    expect(analysis.problems).toEqual([{ kind: 'NoResolution', entrypoint: './storage-conformance', resolutionKind: 'node16-cjs' }]);
  });
});
