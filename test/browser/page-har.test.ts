/** start()'s har() in real Chromium: the service worker hands the page a world's journal, and the page's module makes the HAR 1.2 of it, filtered, secrets redacted. */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Har } from '../../controls/index.ts';
import type { PageSandbox, StartedPetStoreWorker } from '../../runtimes/browser/index.ts';
import { harProblems } from '../helpers/har-schema.ts';
import { workerPages } from './browser.ts';

/** The worker, built from source as a user's own worker would be: one configured key, the main world's. */
const WORKER = "import { servePetStoreInWorker } from './runtimes/service-worker/index.ts'; servePetStoreInWorker({ apiKeys: { 'main-key-0123': 'pro' } });";

const pages = workerPages(WORKER);
const startedPage = pages.startedPage;

/** The page's globals: what start() resolved to, and the sandbox it opened. */
type Story = Window & { started: Promise<StartedPetStoreWorker>; sandbox: PageSandbox };

/** `fetch(path)` from the page with `key` (and `headers`): its status. */
const call = (page: Page, key: string, path: string, headers: Record<string, string> = {}) =>
  page.evaluate(async ({ key, path, headers }) => (await fetch(path, { headers: { authorization: `Bearer ${key}`, ...headers } })).status, {
    key,
    path,
    headers,
  });

/** Each entry as `METHOD path?query status`. */
const calls = (har: Har) => har.log.entries.map(({ request, response }) => `${request.method} ${request.url.slice(pages.origin().length)} ${response.status}`);

describe('start() in Chromium: har()', () => {
  it('gives the main world’s and a sandbox’s journal as HAR 1.2, filtered as the admin API filters, with no key or selector in it', async () => {
    const page = await startedPage();
    const { keys, selector } = await page.evaluate(async () => {
      const story = window as unknown as Story;
      story.sandbox = await (await story.started).sandbox();
      return { keys: story.sandbox.keys, selector: story.sandbox.selector };
    });
    expect(await call(page, 'main-key-0123', '/v1/pets?limit=2')).toBe(200);
    expect(await call(page, 'main-key-0123', '/v1/pets/9')).toBe(404);
    expect(await call(page, keys.free, `/v1/pets?key=${keys.free}`)).toBe(200);
    expect(await call(page, 'main-key-0123', '/v1/pets', { 'petstore-sandbox': selector })).toBe(200);

    const main = await page.evaluate(async () => (await (window as unknown as Story).started).har());
    expect(harProblems(main)).toEqual([]);
    expect(calls(main)).toEqual(['GET /v1/pets?limit=2 200', 'GET /v1/pets/9 404']);
    expect(main.log.entries[0]!.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [redacted]' });
    const notFound = await page.evaluate(async () => (await (window as unknown as Story).started).har({ status: 404 }));
    expect(calls(notFound)).toEqual(['GET /v1/pets/9 404']);

    const ofSandbox = await page.evaluate(() => (window as unknown as Story).sandbox.har());
    expect(harProblems(ofSandbox)).toEqual([]);
    expect(calls(ofSandbox)).toEqual(['GET /v1/pets?key=[redacted] 200', 'GET /v1/pets 200']);
    expect(calls(await page.evaluate(() => (window as unknown as Story).sandbox.har({ limit: 1 })))).toEqual(['GET /v1/pets 200']);
    const texts = JSON.stringify([main, ofSandbox]);
    for (const secret of ['main-key-0123', keys.free, selector]) expect(texts).not.toContain(secret);
    await page.close();
  }, 60_000);
});
