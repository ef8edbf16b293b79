/** `petstore-service init --worker-only` and `start()` of petstore-service/browser in real Chromium, each run on a fresh profile: first load, offline, reload, reset, failures. */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/operations/openapi-document.ts';
import { launchFreshProfile, serveStatic } from './browser.ts';

/** The page a user writes: start the worker the moment the page loads. */
const INDEX_HTML = `<!doctype html><meta charset="utf-8"><title>init + start</title>
<script type="module">
  import { start } from '/start.js';
  Object.assign(window, { start, controlledAtLoad: Boolean(navigator.serviceWorker.controller) });
  window.started = start({ url: '/petstore-service-worker.js' });
</script>`;
/** A page that only loads start(), to call it with other arguments. */
const BARE_HTML = `<!doctype html><meta charset="utf-8"><script type="module">import { start } from '/start.js'; window.start = start;</script>`;
/** A worker whose install fails. */
const BROKEN_WORKER = `self.addEventListener('install', (event) => event.waitUntil(Promise.reject(new Error('no'))));`;
/** Chromium resolves this name to 127.0.0.1, but a page from http://insecure.test is not a secure context. */
const INSECURE_HOST = 'insecure.test';

let root: string;
let initOutput: string;
let server: Server;
let origin: string;
let requested: string[];
let chromium: { context: BrowserContext; close(): Promise<void> };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'petstore-init-'));
  const site = join(root, 'public');
  // The bundler path: the worker alone, started by a page of the app's own.
  const cli = [resolve('dist/cli/index.js'), 'init', 'public', '--worker-only', '--key', 'browser-key'];
  initOutput = (await promisify(execFile)(process.execPath, cli, { cwd: root })).stdout;
  writeFileSync(join(site, 'index.html'), INDEX_HTML);
  // What a user's bundler makes of `import { start } from 'petstore-service/browser'` (the built package, by its name).
  await build({
    stdin: { contents: "export { start } from 'petstore-service/browser';", resolveDir: resolve('.') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: join(site, 'start.js'),
    logLevel: 'silent',
  });
  mkdirSync(join(site, 'broken'));
  writeFileSync(join(site, 'broken/index.html'), BARE_HTML);
  writeFileSync(join(site, 'broken/broken-worker.js'), BROKEN_WORKER);
  copyFileSync(resolve('dist/worker/petstore-service-worker.js'), join(site, 'template-without-options.js'));
  ({ server, origin, requested } = await serveStatic(site));
  chromium = await launchFreshProfile([`--host-resolver-rules=MAP ${INSECURE_HOST} 127.0.0.1`]);
}, 60_000);
afterAll(async () => {
  await chromium?.close();
  server?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Answer {
  status: number;
  limit: string | null;
  remaining: string | null;
  body: unknown;
}

/** Calls the API from inside the page with the key init was given; waits for start() first. */
const api = (page: Page, method: 'GET' | 'POST', path: string, pet?: object) =>
  page.evaluate(
    async ({ method, path, pet }) => {
      await (window as unknown as { started: Promise<unknown> }).started;
      const headers = { authorization: 'Bearer browser-key', 'content-type': 'application/json' };
      const response = await fetch(path, { method, headers, body: pet && JSON.stringify(pet) });
      const [limit, remaining] = ['x-ratelimit-limit', 'x-ratelimit-remaining'].map((name) => response.headers.get(name));
      return { status: response.status, limit, remaining, body: await response.json() } as Answer;
    },
    { method, path, pet },
  );

/**
 * Sends list requests 50 at a time until the key is banned (pro: 300 a minute, then more than 10
 * refused); resolves to the answer that says so. Bounded, in case a new minute starts mid-burst.
 */
const banKey = (page: Page) =>
  page.evaluate(async () => {
    const headers = { authorization: 'Bearer browser-key' };
    for (let sent = 0; sent < 2_000; sent += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => fetch('/v1/pets?limit=1', { headers })));
      for (const response of answers.filter((answer) => answer.status === 429)) {
        const body = await response.json();
        if (body.code === 'key_banned') return { status: response.status, body };
      }
    }
    return { status: 0, body: 'never banned' };
  });

const names = async (page: Page) => ((await api(page, 'GET', '/v1/pets')).body as { name: string }[]).map((pet) => pet.name);

/** What start(options) settles to in the page at `path`: 'resolved', or the error's name and message. */
const startOutcome = (page: Page, options: object) =>
  page.evaluate(
    (options) =>
      (window as unknown as { start(options: object): Promise<unknown> }).start(options).then(
        () => 'resolved',
        (error: Error) => `${error.name}: ${error.message}`,
      ),
    options,
  );

describe('npx petstore-service init, then start() in Chromium', () => {
  it('prints the two lines that start the worker and the key it accepts', () => {
    expect(initOutput).toContain("  import { start } from 'petstore-service/browser';\n  await start({ url: '/petstore-service-worker.js' });\n");
    expect(initOutput).toContain('API key the worker accepts (pro plan): browser-key');
  });

  it('answers the first load of a fresh profile, then creates and lists with the network off, and keeps the pets across a reload', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${origin}/`);
    expect(await api(page, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 })).toMatchObject({ status: 201, limit: '300', body: { id: 1 } });
    expect(await names(page)).toEqual(['Rex']);
    expect(
      await page.evaluate(() => [(window as unknown as { controlledAtLoad: boolean }).controlledAtLoad, navigator.serviceWorker.controller?.scriptURL]),
    ).toEqual([false, `${origin}/petstore-service-worker.js`]);

    await chromium.context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    expect(await api(page, 'POST', '/v1/pets', { name: 'Offline Olly', categoryId: 2 })).toMatchObject({ status: 201, body: { id: 2 } });
    expect(await names(page)).toEqual(['Rex', 'Offline Olly']);
    await chromium.context.setOffline(false);

    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { controlledAtLoad: boolean }).controlledAtLoad)).toBe(true);
    expect(await names(page)).toEqual(['Rex', 'Offline Olly']);
    // The static server never saw an API request: the worker answered every one.
    expect(requested.filter((path) => path.startsWith('/v1'))).toEqual([]);
    await page.close();
  }, 60_000);

  it('takes control again after Shift+Reload, which loads the page past the worker', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${origin}/`);
    const cdp = await chromium.context.newCDPSession(page);
    const loaded = page.waitForEvent('load');
    await cdp.send('Page.reload', { ignoreCache: true });
    await loaded;
    expect(await page.evaluate(() => (window as unknown as { controlledAtLoad: boolean }).controlledAtLoad)).toBe(false);
    expect(await names(page)).toEqual(['Rex', 'Offline Olly']);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${origin}/petstore-service-worker.js`);
    await page.close();
  }, 60_000);

  it('serves at /v1/openapi.json the document the library builds, to the byte, though its build converted the schemas ahead of time', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${origin}/`);
    const served = await page.evaluate(async () => {
      await (window as unknown as { started: Promise<unknown> }).started;
      const response = await fetch('/v1/openapi.json');
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    });
    expect(served).toMatchObject({ status: 200, type: 'application/json' });
    expect(JSON.parse(served.text)).toEqual(openApiDocument('/v1'));
    expect(served.text).toBe(JSON.stringify(openApiDocument('/v1')));
    await page.close();
  }, 60_000);

  it('reset() empties the pets and lifts a ban, for every page of the worker', async () => {
    const [page, other] = [await chromium.context.newPage(), await chromium.context.newPage()];
    await Promise.all([page.goto(`${origin}/`), other.goto(`${origin}/`)]);
    expect(await names(other)).toEqual(['Rex', 'Offline Olly']);
    expect(await banKey(other)).toMatchObject({ status: 429, body: { code: 'key_banned' } });
    await page.evaluate(async () => {
      const worker = await (window as unknown as { started: Promise<{ reset(): Promise<void> }> }).started;
      await worker.reset();
    });
    expect(await api(other, 'GET', '/v1/pets')).toMatchObject({ status: 200, remaining: '299', body: [] });
    expect(await api(page, 'POST', '/v1/pets', { name: 'Kit', categoryId: 3 })).toMatchObject({ status: 201, body: { id: 1 } });
    await Promise.all([page.close(), other.close()]);
  }, 60_000);

  it('rejects a wrong option with a TypeError naming the valid ones', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${origin}/broken/`);
    expect(await startOutcome(page, { url: '/petstore-service-worker.js', scop: '/' })).toBe(
      'TypeError: start: unknown option "scop"; the options are url, scope',
    );
    expect(await startOutcome(page, {})).toBe("TypeError: start: url must be a URL (string or URL), like '/petstore-service-worker.js', got undefined");
    expect(await startOutcome(page, { url: 'http://[::1' })).toBe(
      `TypeError: start: url must be a URL (string or URL), like '/petstore-service-worker.js', got "http://[::1"`,
    );
    await page.close();
  }, 60_000);

  it('rejects with the reason when the browser refuses the script, the page is out of scope, or the worker fails to install', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${origin}/broken/`);
    expect(await startOutcome(page, { url: '/missing-worker.js', scope: '/broken/' })).toMatch(
      new RegExp(`^Error: start: the browser refused the service worker ${origin}/missing-worker.js: .*bad HTTP response code \\(404\\)`),
    );
    // The bundle without the options line init writes before it cannot run, and says so at once.
    expect(await startOutcome(page, { url: '/template-without-options.js', scope: '/broken/' })).toMatch(
      /^Error: start: the browser refused the service worker .*evaluation failed/,
    );
    expect(await startOutcome(page, { url: '/petstore-service-worker.js', scope: '/elsewhere/' })).toBe(
      `Error: start: this page (${origin}/broken/) is outside the worker's scope ${origin}/elsewhere/, so the worker cannot answer it`,
    );
    expect(await startOutcome(page, { url: '/broken/broken-worker.js' })).toBe(
      `Error: start: the service worker ${origin}/broken/broken-worker.js failed to install (its install or activate handler failed)`,
    );
    await page.close();
  }, 60_000);

  it('rejects on a page that cannot have service workers (not a secure context)', async () => {
    const page = await chromium.context.newPage();
    await page.goto(origin.replace('127.0.0.1', INSECURE_HOST) + '/broken/');
    expect(await page.evaluate(() => [isSecureContext, 'serviceWorker' in navigator])).toEqual([false, false]);
    expect(await startOutcome(page, { url: '/petstore-service-worker.js' })).toBe(
      'Error: start: this page cannot use service workers (navigator.serviceWorker is missing): the page is not a secure context: serve it over https or from localhost',
    );
    await page.close();
  }, 60_000);
});
