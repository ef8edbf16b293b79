/** The demo page `petstore-service init <dir> --generate 25:7` writes shows the API at work, in real Chromium with the network off after the first load: each call and its headers, the quota, get-by-id's deprecation, a pet just added. */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generatedPets } from '../../controls/index.ts';
import { launchFreshProfile } from './browser.ts';
import { addPet, petNames, ready, type ServedSite, servedSite } from './init-site.ts';

/** The pets init's --generate 25:7 gives the worker, ids 1 to 25 in this order. */
const GENERATED = generatedPets({ count: 25, seed: 7 });

let served: ServedSite;
let chromium: { context: BrowserContext; close(): Promise<void> };
/** The console's errors during the first load, online, when the browser also asks for the page's icon. */
const firstLoadErrors: string[] = [];
/** What the server had been asked for when it stopped: nothing after that reaches it. */
let seen: number;

// What the page shows after a click comes after a worker's answer and a render: on a busy machine that
// can take longer than expect.poll's default of 1 s: wait up to 20 s (each check still passes as soon as it holds).
vi.setConfig({ expect: { poll: { timeout: 20_000 } } });

beforeAll(async () => {
  served = await servedSite('--generate', '25:7');
  chromium = await launchFreshProfile();
  const page = await chromium.context.newPage();
  page.on('console', (message) => message.type() === 'error' && firstLoadErrors.push(message.text()));
  await page.goto(served.site);
  await ready(page);
  // The icon is asked for after the load, on its own: wait for the network to go quiet.
  await page.waitForLoadState('networkidle');
  await page.close();
  // From here on, no network and no server: the worker and its cache answer everything.
  served.server.closeAllConnections();
  await new Promise((done) => served.server.close(done));
  seen = served.requested.length;
  await chromium.context.setOffline(true);
}, 60_000);
afterAll(async () => {
  await chromium?.close();
  served?.close();
});

/** Opens the page offline, resets the worker's main world and puts its clock at `time`, where it stays: quotas count from full in a minute that does not end. */
async function openAt(time: string): Promise<Page> {
  const page = await chromium.context.newPage();
  await page.goto(served.site);
  await ready(page);
  // A string, so vitest's transform leaves the browser's own dynamic import alone. start() again finds the worker that controls the page.
  await page.evaluate(`(async () => {
    const { start } = await import(new URL('petstore-service-browser.js', location.href).href);
    const worker = await start({ url: './petstore-service-worker.js' });
    await worker.reset();
    await worker.seed({ generate: { count: 25, seed: 7 } });
    await worker.clock.set(${JSON.stringify(time)});
  })()`);
  await page.getByRole('button', { name: 'List pets' }).click();
  return page;
}

const meter = (page: Page) => page.getByRole('meter', { name: 'Quota left' });
const quotaLeft = async (page: Page) => Number(await meter(page).getAttribute('value'));
const calls = (page: Page) => page.getByRole('list', { name: 'Calls' }).getByRole('listitem');

describe('the demo page init writes shows the API at work, offline', () => {
  it('loads with no error in the console, its icon included', () => {
    expect(firstLoadErrors).toEqual([]);
  });

  it('says a pet just added and shows the page that holds it, the row marked, its name as text', async () => {
    const page = await openAt('2026-06-01T12:00:30Z');
    await expect.poll(() => petNames(page)).toEqual(GENERATED.slice(0, 10).map((pet) => pet.name));
    const name = 'Rex <img src=x onerror="window.ran = true">';
    await addPet(page, name);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Added' }).textContent()).toBe(`Added ${name} (id 26), on page 3.`);
    expect(await petNames(page)).toEqual([...GENERATED.slice(20).map((pet) => pet.name), name]);
    expect(await page.locator('#page').textContent()).toBe('Page 3');
    expect(await page.locator('#pets tr[aria-current="true"] td:nth-child(2)').allTextContents()).toEqual([name]);
    expect(await page.evaluate(() => [document.querySelectorAll('img').length, (window as { ran?: boolean }).ran])).toEqual([0, undefined]);
    // Previous goes back through the pages walked to find it.
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => petNames(page)).toEqual(GENERATED.slice(10, 20).map((pet) => pet.name));
    await page.close();
  }, 60_000);

  it('shows the quota left as a meter that goes down with each call', async () => {
    const page = await openAt('2026-06-01T12:00:30Z');
    // The first call of the minute leaves 299 of the pro plan's 300.
    await expect.poll(() => quotaLeft(page)).toBe(299);
    expect(await meter(page).getAttribute('max')).toBe('300');
    expect(await page.locator('#quota-text').textContent()).toBe('299 of 300 requests left');
    await page.getByRole('button', { name: 'List pets' }).click();
    await expect.poll(() => quotaLeft(page)).toBe(298);
    await page.getByLabel('Pet id').fill('1');
    await page.getByRole('button', { name: 'Get pet' }).click();
    await expect.poll(() => quotaLeft(page)).toBe(297);
    await page.close();
  }, 60_000);

  it('gets a pet by id and says its deprecation in words, and after the sunset that it is gone', async () => {
    const page = await openAt('2026-06-01T12:00:30Z');
    await page.getByLabel('Pet id').fill('7');
    await page.getByRole('button', { name: 'Get pet' }).click();
    const found = page.getByRole('region', { name: 'Pet by id' });
    const pet = GENERATED[6]!;
    await expect.poll(() => found.locator('#pet').textContent()).toBe(`${pet.name} (id 7), category ${pet.categoryId}, ${pet.status ?? 'no status'}.`);
    expect(await found.locator('#deprecation').textContent()).toBe(
      'GET /v1/pets/{petId} is deprecated since 1 January 2026 (Deprecation) and answers 410 Gone from 5 December 2030 (Sunset): use /v1/pets instead (Link rel="successor-version").',
    );

    await page.evaluate(`(async () => {
      const { start } = await import(new URL('petstore-service-browser.js', location.href).href);
      await (await start({ url: './petstore-service-worker.js' })).clock.set('2031-01-01T00:00:00Z');
    })()`);
    await page.getByRole('button', { name: 'Get pet' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^410 gone: /);
    expect(await found.locator('#pet').textContent()).toBe('');
    expect(await found.locator('#deprecation').textContent()).toBe(
      'GET /v1/pets/{petId} is deprecated since 1 January 2026 (Deprecation) and has answered 410 Gone since 5 December 2030 (Sunset): use /v1/pets instead (Link rel="successor-version").',
    );
    await page.close();
  }, 60_000);

  it('logs each call, newest first and the last 20, with its status and the headers that matter', async () => {
    const page = await openAt('2026-06-01T12:00:30Z');
    await expect.poll(() => calls(page).first().textContent()).toContain('X-RateLimit-Remaining: 299');
    expect(await calls(page).first().textContent()).toMatch(
      /^GET \/v1\/pets\?limit=10 → 200 OK\nX-RateLimit-Limit: 300\nX-RateLimit-Remaining: 299\nX-RateLimit-Reset: \d+\nLink: <\/v1\/pets\?limit=10&cursor=[^>]+>; rel="next"$/,
    );

    await page.getByLabel('Pet id').fill('999');
    await page.getByRole('button', { name: 'Get pet' }).click();
    await expect.poll(() => calls(page).first().textContent()).toMatch(/^GET \/v1\/pets\/999 → 404 Not Found\n/);
    expect(await calls(page).first().textContent()).toContain('Deprecation: @1767225600\nSunset: Thu, 05 Dec 2030 00:00:00 GMT');

    for (let remaining = 297; remaining > 277; remaining--) {
      await page.getByRole('button', { name: 'List pets' }).click();
      await expect.poll(() => calls(page).first().textContent()).toContain(`X-RateLimit-Remaining: ${remaining}\n`);
    }
    expect(await calls(page).count()).toBe(20);
    expect(served.requested.length).toBe(seen);
    await page.close();
  }, 90_000);
});
