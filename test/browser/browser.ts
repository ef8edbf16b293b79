/** Real headless Chromium (Debian's, or CHROMIUM_PATH) through playwright-core, and a static server for the pages it loads. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
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
