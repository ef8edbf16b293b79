/** The PetStorage conformance suite against idbPetStorage in real Chromium: each call crosses into the page. */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { describePetStorageConformance } from '../../testing/conformance/index.ts';
import type { PetStorage } from '../../compose/index.ts';
import { launchChromium, serveStatic } from './browser.ts';

let browser: Browser;
let server: Server;
let page: Page;
let stores = 0;

beforeAll(async () => {
  const site = await serveStatic(resolve('dist/offline-demo'));
  server = site.server;
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${site.origin}/idb.js`); // any page of the origin will do: the store is imported below
}, 60_000);
afterAll(async () => {
  await browser?.close();
  server?.close();
});

/** A fresh IndexedDB storage in the page, and a PetStorage whose every call runs there. */
async function storageInPage(): Promise<PetStorage> {
  const name = `conformance-${++stores}`;
  // Strings, so vitest's transform leaves the browser's own dynamic import alone.
  await page.evaluate(`(async () => {
    const { idbPetStorage } = await import('/idb.js');
    (window.stores ??= {})[${JSON.stringify(name)}] = idbPetStorage({ dbName: ${JSON.stringify(name)} });
  })()`);
  const call =
    (method: keyof PetStorage) =>
    (...args: unknown[]): Promise<never> =>
      page.evaluate(`window.stores[${JSON.stringify(name)}].${method}(...${JSON.stringify(args)})`);
  return { create: call('create'), get: call('get'), list: call('list'), createOnce: call('createOnce') };
}

describePetStorageConformance('idbPetStorage in Chromium', storageInPage);
