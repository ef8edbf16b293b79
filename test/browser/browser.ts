/** Real headless Chromium (Debian's, or CHROMIUM_PATH) through playwright-core, a static server for the pages it loads, a served page that starts a service worker built from source, and pages of it for a file's tests. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { chromiumPath as findChromium, requirePart } from '../helpers/system-parts.ts';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium, else `chromium` on PATH; or fails saying what to install. */
function chromiumPath(): string {
  requirePart('chromium');
  return findChromium()!;
}

/** Launches headless Chromium, or fails with what to install. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ARGS });
}

/**
 * Chromium on a fresh `--user-data-dir` (no service worker, IndexedDB or cache from an earlier
 * run), with extra flags; `close()` quits it and deletes the profile.
 */
export async function launchFreshProfile(args: string[] = []): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), headless: true, args: [...ARGS, ...args] });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.map': 'application/json' };

/** Serves `root` on 127.0.0.1 (a secure context, so service workers may register); `requested` lists the paths asked for. */
export async function serveStatic(root: string): Promise<{ origin: string; server: Server; requested: string[] }> {
  const requested: string[] = [];
  const server = createServer((request, response) => {
    requested.push(new URL(request.url!, 'http://x').pathname);
    const path = normalize(decodeURIComponent(new URL(request.url!, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(root) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requested };
}

/** A page that starts the worker at `/sw.js` as it loads, what start() resolves to left in `window.started`. */
const STARTING_PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
  import { start } from '/start.js';
  window.started = start({ url: '/sw.js' });
</script>`;

/**
 * A served folder holding that page, `start()` as `/start.js`, and `/sw.js` built from `worker`
 * (TypeScript importing this checkout's sources, as a user's own worker would), each bundled for the
 * browser by esbuild; `close()` stops the server and deletes the folder.
 *
 * @example
 * const site = await workerSite("import { servePetStoreInWorker } from './runtimes/service-worker/index.ts'; servePetStoreInWorker();");
 * await page.goto(`${site.origin}/`);
 */
export async function workerSite(worker: string): Promise<{ readonly origin: string; close(): void }> {
  const root = mkdtempSync(join(tmpdir(), 'petstore-worker-site-'));
  writeFileSync(join(root, 'index.html'), STARTING_PAGE);
  const common = { bundle: true, platform: 'browser', target: 'es2022', logLevel: 'silent', define: { __PETSTORE_VERSION__: '"0.0.0"' } } as const;
  await build({ ...common, stdin: { contents: worker, resolveDir: resolve('.'), loader: 'ts' }, format: 'iife', outfile: join(root, 'sw.js') });
  await build({ ...common, entryPoints: [resolve('runtimes/browser/index.ts')], format: 'esm', outfile: join(root, 'start.js') });
  const { server, origin } = await serveStatic(root);
  return {
    origin,
    close() {
      server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A site whose service worker is built from `worker`, and a fresh Chromium profile, made before the
 * calling file's tests and closed after them: `startedPage()` opens a page the worker answers, its
 * `start()` resolved (the page's `window.started`).
 *
 * @example
 * const pages = workerPages("import { servePetStoreInWorker } from './runtimes/service-worker/index.ts'; servePetStoreInWorker({ apiKeys: { k: 'pro' } });");
 * const page = await pages.startedPage();
 */
export function workerPages(worker: string): { origin(): string; startedPage(): Promise<Page> } {
  let site: Awaited<ReturnType<typeof workerSite>> | undefined;
  let profile: Awaited<ReturnType<typeof launchFreshProfile>> | undefined;
  beforeAll(async () => {
    site = await workerSite(worker);
    profile = await launchFreshProfile();
  }, 60_000);
  afterAll(async () => {
    await profile?.close();
    site?.close();
  });
  return {
    origin: () => site!.origin,
    async startedPage() {
      const page = await profile!.context.newPage();
      await page.goto(`${site!.origin}/`);
      await page.evaluate(() => (window as unknown as { started: Promise<unknown> }).started);
      return page;
    },
  };
}
