/** The site `petstore-service init <dir> --generate 25:7` writes, in real Chromium from a plain static server: the generated pets on the first load, paging, reset, a fresh init, then an offline reload and the way back online. */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import type { Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generatedPets } from '../../controls/index.ts';
import { launchFreshProfile } from './browser.ts';
import { addPet, petNames, ready, type ServedSite, servedSite } from './init-site.ts';

/** The pets init's --generate 25:7 gives the worker: the page's first page holds the first 10. */
const GENERATED = generatedPets({ count: 25, seed: 7 }).map((pet) => pet.name);

let served: ServedSite;
let server: Server;
let origin: string;
let requested: string[];
let chromium: { context: BrowserContext; close(): Promise<void> };
/** The site's own URL: init wrote it into <root>/shop, and the server serves <root>, so the site lives under a sub-path. */
let site: string;

/** Runs the built `petstore-service init shop <args>` in the served folder. */
const init = (...args: string[]) => served.init(...args);

// What the page shows after a click comes after a worker's answer and a render: on a busy machine that
// can take longer than expect.poll's default of 1 s: wait up to 20 s (each check still passes as soon as it holds).
vi.setConfig({ expect: { poll: { timeout: 20_000 } } });

beforeAll(async () => {
  served = await servedSite('--generate', '25:7');
  ({ server, origin, requested, site } = served);
  chromium = await launchFreshProfile();
}, 60_000);
afterAll(async () => {
  await chromium?.close();
  served?.close();
});

const text = (page: Page, selector: string) => page.locator(selector).textContent();

/** Creates pets through the API from inside the page, with the key init wrote into it; resolves to their statuses. */
const createInPage = (page: Page, names: string[], key = 'demo-key') =>
  page.evaluate(
    async ({ names, key }) => {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const responses = [];
      for (const name of names) responses.push(await fetch('/v1/pets', { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1 }) }));
      return responses.map((response) => response.status);
    },
    { names, key },
  );

/**
 * Resolves once the worker a fresh init wrote is activated: its activate handler, which deletes the
 * old cache, has finished. Waits on the worker's own events, as a deadline cannot: in a full run on
 * a busy machine the old cache was still listed after polling for 20 s. `update()` joins the check
 * the reload started (or finds its result), so the changed worker is then installing, waiting or active.
 */
const newWorkerActivated = (page: Page) =>
  page.evaluate(async () => {
    const registration = (await navigator.serviceWorker.getRegistration())!;
    await registration.update();
    const worker = (registration.installing ?? registration.waiting ?? registration.active)!;
    await new Promise<void>((resolve, reject) => {
      const settle = () => {
        if (worker.state === 'activated') resolve();
        if (worker.state === 'redundant') reject(new Error('the new service worker failed to install'));
      };
      worker.addEventListener('statechange', settle);
      settle();
    });
  });

/** The names of the page's caches, read from the page. */
const cacheNames = (page: Page) => page.evaluate(() => caches.keys());

describe('the site petstore-service init writes, in Chromium from a plain static server', () => {
  it('lists the generated pets on the first load, resets to none for good, creates one with the form, pages through the Link header, and resets', async () => {
    const page = await chromium.context.newPage();
    await page.goto(site);
    await ready(page);
    // The signature comment before <!doctype html> leaves the page in standards mode.
    expect(await page.evaluate(() => document.compatMode)).toBe('CSS1Compat');
    await expect.poll(() => text(page, '#network')).toBe('Online');
    expect(await petNames(page)).toEqual(GENERATED.slice(0, 10));
    await page.click('#next');
    await expect.poll(() => petNames(page)).toEqual(GENERATED.slice(10, 20));

    // Reset empties the store, generated pets included, and a reload (no new worker, so no install) brings none back.
    await page.click('#reset');
    await expect.poll(() => text(page, '#status')).toBe('Reset: no pets, a full quota, no ban.');
    expect(await petNames(page)).toEqual([]);
    await page.reload();
    await ready(page);
    expect(await petNames(page)).toEqual([]);

    await addPet(page, 'Rex');
    await expect.poll(() => petNames(page)).toEqual(['Rex']);
    expect(
      await createInPage(
        page,
        Array.from({ length: 10 }, (_, i) => `Pet ${i + 2}`),
      ),
    ).toEqual(Array(10).fill(201));
    await page.click('#list button');
    await expect.poll(() => petNames(page)).toHaveLength(10);
    expect([await text(page, '#page'), await page.isDisabled('#previous'), await page.isDisabled('#next')]).toEqual(['Page 1', true, false]);

    await page.click('#next');
    await expect.poll(() => petNames(page)).toEqual(['Pet 11']);
    expect([await text(page, '#page'), await page.isDisabled('#next')]).toEqual(['Page 2', true]);
    await page.click('#previous');
    await expect.poll(() => petNames(page)).toHaveLength(10);

    await page.click('#reset');
    await expect.poll(() => text(page, '#status')).toBe('Reset: no pets, a full quota, no ban.');
    expect(await petNames(page)).toEqual([]);
    // Every API request was answered by the worker, from a page under /shop/: the server never saw one.
    expect(requested.filter((path) => path.startsWith('/v1'))).toEqual([]);
    await page.close();
  }, 60_000);

  it('serves what a fresh init wrote, under a new cache that replaces the old one, adding no generated pets to a store that holds some', async () => {
    const page = await chromium.context.newPage();
    await page.goto(site);
    await ready(page);
    const [before] = await cacheNames(page);
    expect(await cacheNames(page)).toEqual([expect.stringMatching(new RegExp(`^petstore-service site ${site} `))]);

    await addPet(page, 'Kit');
    await expect.poll(() => petNames(page)).toEqual(['Kit']);

    await init('--key', 'new-key', '--generate', '25:7');
    await page.reload();
    // The browser finds the changed worker as the page loads; it precaches the new files and deletes the old cache as it takes over.
    await newWorkerActivated(page);
    expect(await cacheNames(page)).toEqual([expect.stringMatching(new RegExp(`^petstore-service site ${site} `))]);
    expect(await cacheNames(page)).not.toContain(before);
    // The new worker installed over a store holding Kit, so it added no generated pets; the page lists with the new key.
    await page.click('#list button');
    await expect.poll(() => petNames(page)).toEqual(['Kit']);
    expect(await createInPage(page, ['Old key'])).toEqual([401]);
    await page.close();
  }, 60_000);

  it('reloads from the worker’s cache with the server stopped, then with the network off too, saying so, the API still listing and creating, and says Online once both are back', async () => {
    const page = await chromium.context.newPage();
    // Playwright's clock for the page's timers (it flows as the real one until the test moves it on).
    await chromium.context.clock.install();
    await page.goto(site);
    await ready(page);
    await expect.poll(() => text(page, '#network')).toBe('Online');
    await addPet(page, 'Before offline');
    await expect.poll(() => petNames(page)).toContain('Before offline');
    const before = await petNames(page);

    // The network is up, so navigator.onLine stays true: only the page's own request finds the server gone.
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    const seen = requested.length;
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    await expect.poll(() => text(page, '#network')).toBe('Offline: the service worker answers this page and /v1');
    await expect.poll(() => petNames(page)).toEqual(before);

    await chromium.context.setOffline(true);
    await page.reload();
    await ready(page);
    await expect.poll(() => text(page, '#network')).toBe('Offline: the service worker answers this page and /v1');
    await expect.poll(() => petNames(page)).toEqual(before);
    await addPet(page, 'Offline Olly');
    await expect.poll(() => petNames(page)).toEqual([...before, 'Offline Olly']);
    expect(requested.length).toBe(seen);

    // Back: the network, then the server on its old port. No event says so (navigator.onLine may
    // never have gone false), so the page asks again every 5 s while it says Offline.
    await chromium.context.setOffline(false);
    await new Promise<void>((done) => server.listen(Number(new URL(origin).port), '127.0.0.1', done));
    await chromium.context.clock.fastForward(5_000);
    await expect.poll(() => text(page, '#network')).toBe('Online');
    await page.close();
  }, 60_000);
});
