/** start()'s controls in real Chromium: two pages of one browser, each with a sandbox of its own in the one service worker (seed, pets, quotas, clock, faults, delete), and the main world left alone. */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PageSandbox, StartedPetStoreWorker } from '../../runtimes/browser/index.ts';
import { workerPages } from './browser.ts';

/** The worker, built from source as a user's own worker would be: one configured key, the main world's. */
const WORKER = "import { servePetStoreInWorker } from './runtimes/service-worker/index.ts'; servePetStoreInWorker({ apiKeys: { 'main-key': 'pro' } });";

const pages = workerPages(WORKER);
const storyPage = pages.startedPage;

/** The page's globals: what start() resolved to, and the sandbox it opened. */
type Story = Window & { started: Promise<StartedPetStoreWorker>; sandbox: PageSandbox };

/** Opens the page's own sandbox, seeded with `seed`; resolves to its keys. */
const openSandbox = (page: Page, seed: unknown) =>
  page.evaluate(async (seed) => {
    const story = window as unknown as Story;
    story.sandbox = await (await story.started).sandbox({ seed: seed as never });
    return story.sandbox.keys;
  }, seed);

/** `fetch(path)` from the page with `key`: status, quota left and body. */
const call = (page: Page, key: string, method: 'GET' | 'POST', path: string, pet?: object) =>
  page.evaluate(
    async ({ key, method, path, pet }) => {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const response = await fetch(path, { method, headers, body: pet && JSON.stringify(pet) });
      return { status: response.status, remaining: response.headers.get('x-ratelimit-remaining'), body: await response.json() };
    },
    { key, method, path, pet },
  );

/** What `world.<path>(...args)` of the page's sandbox (or, with `main`, of the main world) settles to: its value, or the error's name and message. */
const control = (page: Page, path: string, args: unknown[] = [], world: 'sandbox' | 'main' = 'sandbox') =>
  page.evaluate(
    async ({ path, args, world }) => {
      const story = window as unknown as Story;
      const parts = path.split('.');
      const method = parts.pop()!;
      type Methods = Record<string, (...args: unknown[]) => Promise<unknown>>;
      const owner = parts.reduce<Record<string, unknown>>(
        (object, part) => object[part] as Record<string, unknown>,
        (world === 'sandbox' ? story.sandbox : await story.started) as unknown as Record<string, unknown>,
      ) as unknown as Methods;
      return owner[method]!(...args).then(
        (value) => ({ value }),
        (error: Error) => ({ error: `${error.name}: ${error.message}` }),
      );
    },
    { path, args, world },
  );

const names = (answer: { body: unknown }) => (answer.body as { name: string }[]).map((pet) => pet.name);

describe('start() in Chromium: a sandbox per page', () => {
  it('gives two pages of one browser a world each (pets and ids, quota, clock, faults), leaves the main world alone, and delete() ends one', async () => {
    const [story, other] = [await storyPage(), await storyPage()];
    const keys = await openSandbox(story, [{ name: 'Rex', categoryId: 1 }]);
    const otherKeys = await openSandbox(other, { generate: { count: 3, seed: 7 } });
    expect(keys.pro).not.toBe(otherKeys.pro);

    // Pets and ids: each world counts from 1.
    expect(await call(story, keys.pro, 'POST', '/v1/pets', { name: 'Ace', categoryId: 2 })).toMatchObject({ status: 201, body: { id: 2, name: 'Ace' } });
    expect(await call(other, otherKeys.pro, 'POST', '/v1/pets', { name: 'Zed', categoryId: 3 })).toMatchObject({ status: 201, body: { id: 4, name: 'Zed' } });
    expect(names(await call(story, keys.pro, 'GET', '/v1/pets'))).toEqual(['Rex', 'Ace']);
    const otherPets = await call(other, otherKeys.pro, 'GET', '/v1/pets');
    expect(names(otherPets)).toHaveLength(4);
    expect(names(otherPets)).not.toContain('Rex');
    expect(await control(other, 'pets')).toEqual({ value: expect.arrayContaining([expect.objectContaining({ id: 4, name: 'Zed' })]) });

    // Quotas: the story's requests use its own minute (pro: 300), not the other's.
    for (let sent = 0; sent < 5; sent++) await call(story, keys.pro, 'GET', '/v1/pets');
    expect((await call(story, keys.pro, 'GET', '/v1/pets')).remaining).toBe('292');
    expect((await call(other, otherKeys.pro, 'GET', '/v1/pets')).remaining).toBe('297');

    // Clock: the story's moves; a new minute gives its quota back; the other's stays where it was put.
    expect(await control(other, 'clock.set', ['2031-06-01T00:00:00Z'])).toEqual({ value: Date.parse('2031-06-01T00:00:00Z') });
    expect(await control(story, 'clock.set', ['2030-01-01T00:00:00Z'])).toEqual({ value: Date.parse('2030-01-01T00:00:00Z') });
    expect((await call(story, keys.pro, 'GET', '/v1/pets')).remaining).toBe('299');
    expect(await control(story, 'clock.advance', [61_000])).toEqual({ value: Date.parse('2030-01-01T00:01:01Z') });
    expect(await control(other, 'clock.now')).toEqual({ value: Date.parse('2031-06-01T00:00:00Z') });

    // Faults: the story's hit its requests only; a bad rule is the worker's TypeError, naming the field.
    expect(await control(story, 'faults.inject', [{ status: 503, method: 'GET', times: 'always' }])).toEqual({ value: expect.any(String) });
    expect(await call(story, keys.pro, 'GET', '/v1/pets')).toMatchObject({ status: 503 });
    expect(await call(other, otherKeys.pro, 'GET', '/v1/pets')).toMatchObject({ status: 200 });
    expect(await control(other, 'faults.list')).toEqual({ value: [] });
    expect(await control(story, 'faults.inject', [{ status: 200 }])).toEqual({ error: expect.stringMatching(/^TypeError: .*status/) });

    // The main world (the configured key): no pets, a full quota, the real clock, no faults.
    const before = Date.now();
    expect(await call(story, 'main-key', 'GET', '/v1/pets')).toMatchObject({ status: 200, remaining: '299', body: [] });
    const mainNow = ((await control(other, 'clock.now', [], 'main')) as { value: number }).value;
    expect(mainNow).toBeGreaterThanOrEqual(before);
    expect(mainNow).toBeLessThanOrEqual(Date.now());
    expect(await control(other, 'faults.list', [], 'main')).toEqual({ value: [] });

    // delete(): the story's keys are the main world's 401; the other sandbox lives on.
    expect(await control(story, 'delete')).toEqual({});
    expect(await call(story, keys.pro, 'GET', '/v1/pets')).toMatchObject({ status: 401 });
    expect(await control(story, 'pets')).toEqual({ error: expect.stringMatching(/^Error: sandbox \w+ is gone/) });
    expect(await call(story, otherKeys.pro, 'GET', '/v1/pets')).toMatchObject({ status: 200 });
    await Promise.all([story.close(), other.close()]);
  }, 60_000);

  it('gives a page\u2019s sandbox a selector: a fetch with the main world\u2019s key and Petstore-Sandbox or baggage lives in it', async () => {
    const page = await storyPage();
    await openSandbox(page, [{ name: 'Picked', categoryId: 1 }]);
    const listed = (headers: Record<string, string>) =>
      page.evaluate(async (headers) => {
        const response = await fetch('/v1/pets', { headers: { authorization: 'Bearer main-key', ...headers } });
        const body = (await response.json()) as { name: string }[] | { code: string };
        return { status: response.status, names: Array.isArray(body) ? body.map((pet) => pet.name) : body.code };
      }, headers);
    const selector = await page.evaluate(() => (window as unknown as Story).sandbox.selector);
    expect(selector).toMatch(/^pssel_[A-Za-z0-9_-]{32}$/);
    expect(await listed({ 'petstore-sandbox': selector })).toEqual({ status: 200, names: ['Picked'] });
    expect(await listed({ baggage: `story=7, petstore.sandbox=${selector}` })).toEqual({ status: 200, names: ['Picked'] });
    expect(await listed({})).toEqual({ status: 200, names: [] });
    await page.evaluate(() => (window as unknown as Story).sandbox.delete());
    expect(await listed({ 'petstore-sandbox': selector })).toEqual({ status: 404, names: 'not_found' });
    await page.close();
  }, 60_000);

  it('seeds the main world and moves its clock for every page, and opens no sandbox for a bad seed', async () => {
    const page = await storyPage();
    expect(await control(page, 'seed', [[{ name: 'Main', categoryId: 1 }]], 'main')).toMatchObject({ value: [{ id: 1, name: 'Main' }] });
    expect(names(await call(page, 'main-key', 'GET', '/v1/pets'))).toEqual(['Main']);
    expect(await control(page, 'clock.set', ['2040-01-01T00:00:00Z'], 'main')).toEqual({ value: Date.parse('2040-01-01T00:00:00Z') });
    expect(await control(page, 'sandbox', [{ seed: [{ name: 1 }] }], 'main')).toEqual({ error: expect.stringMatching(/^TypeError: seed: pet 0/) });
    expect(await control(page, 'reset', [], 'main')).toEqual({});
    expect(await call(page, 'main-key', 'GET', '/v1/pets')).toMatchObject({ body: [] });
    await page.close();
  }, 60_000);
});
