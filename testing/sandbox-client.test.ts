/** The sandbox client petstore-service/playwright gives each test, against a fake backend's admin API in process (its fetch, no socket). */
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../compose/create-pet-store.ts';
import type { Har } from '../controls/index.ts';
import { locatePetstore, openRemoteSandbox, petstoreSettings } from './sandbox-client.ts';

const ADMIN = 'admin-token-0123456789';

/** A fake backend with the admin API, and a sandbox of it opened through `url` as the fixture opens one. */
async function opened(url = 'http://fake.test/v1') {
  const petstore = createPetStore({ admin: { token: ADMIN } });
  const sandbox = await openRemoteSandbox({ url, adminToken: ADMIN, fetch: petstore.fetch });
  const call = (path: string, init: RequestInit = {}) =>
    petstore.fetch(`http://fake.test${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN}`, ...init.headers } });
  return { petstore, sandbox, call };
}

describe('the settings', () => {
  it('takes the options before the environment', () => {
    const env = { PETSTORE_URL: 'http://env.test', PETSTORE_ADMIN_TOKEN: 'env-token' };
    expect(petstoreSettings({ petstoreUrl: 'http://option.test/v1', petstoreAdminToken: undefined }, env)).toEqual({
      url: 'http://option.test/v1',
      adminToken: 'env-token',
    });
  });

  it('fails on a missing URL or token with one line naming the environment variable and the option', () => {
    expect(() => petstoreSettings({}, { PETSTORE_ADMIN_TOKEN: 'token' })).toThrow(
      new Error(
        'petstore: no server to open sandboxes on: set PETSTORE_URL, or the petstoreUrl option (test.use({ petstoreUrl }) or use in playwright.config)',
      ),
    );
    expect(() => petstoreSettings({}, { PETSTORE_URL: 'http://env.test', PETSTORE_ADMIN_TOKEN: '' })).toThrow(
      /^petstore: no admin token: set PETSTORE_ADMIN_TOKEN, or the petstoreAdminToken option \(test\.use\(\{ petstoreAdminToken \}\) or use in playwright\.config\)$/,
    );
    expect(() => petstoreSettings({}, {})).toThrow(/^[^\n]*PETSTORE_URL[^\n]*PETSTORE_ADMIN_TOKEN[^\n]*$/);
  });

  it('finds the admin API at the root whether it is given the root or the API URL', () => {
    expect(locatePetstore('http://127.0.0.1:8080')).toEqual({ root: 'http://127.0.0.1:8080', api: 'http://127.0.0.1:8080/v1' });
    expect(locatePetstore('http://127.0.0.1:8080/v1/')).toEqual({ root: 'http://127.0.0.1:8080', api: 'http://127.0.0.1:8080/v1' });
    expect(locatePetstore('http://host.test/api/v1')).toEqual({ root: 'http://host.test/api', api: 'http://host.test/api/v1' });
    expect(() => locatePetstore('127.0.0.1:8080')).toThrow('petstore: PETSTORE_URL (or petstoreUrl) is not a URL: "127.0.0.1:8080"');
  });
});

describe('a sandbox over HTTP', () => {
  it('opens with its id, a key per plan and the API URL, and is deleted', async () => {
    const { sandbox, call } = await opened('http://fake.test');
    expect(sandbox.id).toMatch(/^[0-9a-z]{12}$/);
    expect(sandbox.keys.free).toMatch(new RegExp(`^psbx_${sandbox.id}_free_`));
    expect(sandbox.url).toBe('http://fake.test/v1');
    expect((await call(`/__admin/sandboxes/${sandbox.id}`)).status).toBe(200);
    await sandbox.delete();
    expect((await call(`/__admin/sandboxes/${sandbox.id}`)).status).toBe(404);
    await expect(sandbox.delete()).resolves.toBeUndefined();
  });

  it('seeds, lists, resets, moves its clock and keeps its own journal', async () => {
    const { petstore, sandbox } = await opened();
    expect(await sandbox.seed([{ name: 'Rex', categoryId: 1 }])).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
    expect(await sandbox.clock.set('2026-06-01T12:00:00Z')).toEqual(new Date('2026-06-01T12:00:00Z'));
    expect(await sandbox.clock.advance(60_000)).toEqual(new Date('2026-06-01T12:01:00Z'));
    expect(await sandbox.clock.now()).toEqual(new Date('2026-06-01T12:01:00Z'));
    await expect(sandbox.clock.set(Number.NaN)).rejects.toThrow(/^petstore: POST \/__admin\/sandboxes\/\w+\/clock answered 400: /);
    await petstore.fetch(`${sandbox.url}/pets`, { headers: { authorization: `Bearer ${sandbox.keys.free}` } });
    const [listed] = await sandbox.requests();
    expect([listed?.method, listed?.path, listed?.status, listed?.time]).toEqual(['GET', '/v1/pets', 200, '2026-06-01T12:01:00.000Z']);
    await sandbox.verify({ method: 'GET', path: '/v1/pets', status: 200, times: 1 });
    expect((await sandbox.pets()).map((pet) => pet.name)).toEqual(['Rex']);
    await sandbox.reset();
    expect([await sandbox.pets(), await sandbox.requests()]).toEqual([[], []]);
  });

  it('counts the requests of its journal a filter names with count(), as GET requests/count answers', async () => {
    const { petstore, sandbox } = await opened();
    const get = (path: string) => petstore.fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${sandbox.keys.free}` } });
    await get('/pets');
    await get('/pets');
    await get('/pets/7');
    expect([
      await sandbox.count(),
      await sandbox.count({ path: '/v1/pets' }),
      await sandbox.count({ status: 404 }),
      await sandbox.count({ method: 'POST' }),
    ]).toEqual([3, 2, 1, 0]);
  });

  it('gives its journal as HAR 1.2 with har(), the filters sent as GET requests.har’s query', async () => {
    const { petstore, sandbox } = await opened();
    await sandbox.clock.set('2026-06-01T12:00:00Z');
    await petstore.fetch(`${sandbox.url}/pets`, { headers: { authorization: `Bearer ${sandbox.keys.free}` } });
    await sandbox.clock.advance(60_000);
    await petstore.fetch(`${sandbox.url}/pets/9`, { headers: { authorization: `Bearer ${sandbox.keys.free}` } });
    const calls = (har: Har) => har.log.entries.map(({ request, response }) => `${request.method} ${new URL(request.url).pathname} ${response.status}`);
    const har: Har = await sandbox.har();
    expect([har.log.version, calls(har)]).toEqual(['1.2', ['GET /v1/pets 200', 'GET /v1/pets/9 404']]);
    expect(calls(await sandbox.har({ status: 404 }))).toEqual(['GET /v1/pets/9 404']);
    expect(calls(await sandbox.har({ method: 'get', path: '/v1/pets', limit: 5 }))).toEqual(['GET /v1/pets 200']);
    expect(calls(await sandbox.har({ since: Date.parse('2026-06-01T12:01:00Z') }))).toEqual(['GET /v1/pets/9 404']);
    await expect(sandbox.har({ limit: 0 })).rejects.toThrow(/^petstore: GET \/__admin\/sandboxes\/[0-9a-z]{12}\/requests\.har answered 400: /);
  });

  it('injects, lists, removes one of and clears faults', async () => {
    const { petstore, sandbox } = await opened();
    const id = await sandbox.faults.inject({ status: 503, path: '/v1/pets', times: 2 });
    expect(await sandbox.faults.list()).toEqual([expect.objectContaining({ id, status: 503, path: '/v1/pets', left: 2 })]);
    expect((await petstore.fetch(`${sandbox.url}/pets`, { headers: { authorization: `Bearer ${sandbox.keys.pro}` } })).status).toBe(503);
    const other = await sandbox.faults.inject({ status: 500, path: '/v1/pets/1' });
    await sandbox.faults.remove(id);
    expect((await sandbox.faults.list()).map((fault) => fault.id)).toEqual([other]);
    await expect(sandbox.faults.remove(id)).rejects.toThrow(/404.*not_found/);
    await sandbox.faults.clear();
    expect(await sandbox.faults.list()).toEqual([]);
  });

  it('fails verify with the message the test kit gives, listing every request', async () => {
    const { petstore, sandbox } = await opened();
    await petstore.fetch(`${sandbox.url}/pets`, { headers: { authorization: `Bearer ${sandbox.keys.free}` } });
    await expect(sandbox.verify({ method: 'POST', path: '/v1/pets', times: 1 })).rejects.toThrow(
      new Error(['Expected 1 request(s) matching POST /v1/pets *, got 0.', 'Recorded (1, + marks a match):', '    GET /v1/pets -> 200'].join('\n')),
    );
    await expect(sandbox.verify({ path: /^\/v1\/pets$/, times: 1 })).resolves.toBeUndefined();
  });

  it('verifies on the server (POST verify), whose refusal of a verification is an Error quoting it', async () => {
    const { sandbox } = await opened();
    await expect(sandbox.verify({ method: 'GET', times: -1 })).rejects.toThrow(/^petstore: POST \/__admin\/sandboxes\/[0-9a-z]{12}\/verify answered 400: /);
  });

  it('turns an admin answer that is no success into an Error quoting its JSON', async () => {
    const { sandbox } = await opened();
    await expect(sandbox.seed([{ name: 7 }])).rejects.toThrow(
      /^petstore: POST \/__admin\/sandboxes\/[0-9a-z]{12}\/seed answered 400: \{"code":"invalid_request",/,
    );
    await sandbox.delete();
    await expect(sandbox.pets()).rejects.toThrow(/answered 404: \{"code":"not_found","message":"There is no sandbox/);
  });

  it('refuses a wrong admin token, and an unreachable server, naming the URL', async () => {
    const petstore = createPetStore({ admin: { token: ADMIN } });
    await expect(openRemoteSandbox({ url: 'http://fake.test', adminToken: 'wrong-token', fetch: petstore.fetch })).rejects.toThrow(
      /^petstore: POST \/__admin\/sandboxes answered 401: \{"code":"unauthorized"/,
    );
    const unreachable = () => Promise.reject(new TypeError('fetch failed'));
    await expect(openRemoteSandbox({ url: 'http://fake.test', adminToken: ADMIN, fetch: unreachable })).rejects.toThrow(
      'petstore: no answer from http://fake.test/__admin/sandboxes (PETSTORE_URL or petstoreUrl): fetch failed',
    );
  });
});

describe('a sandbox over HTTP, picked by its selector', () => {
  it('has the selector the admin API answered, which sends a main-world request to it', async () => {
    const petstore = createPetStore({ admin: { token: ADMIN }, apiKeys: { 'main-key-0123': 'free' } });
    const sandbox = await openRemoteSandbox({ url: 'http://fake.test/v1', adminToken: ADMIN, fetch: petstore.fetch });
    expect(sandbox.selector).toMatch(/^pssel_[A-Za-z0-9_-]{32}$/);
    await sandbox.seed([{ name: 'Rex', categoryId: 1 }]);
    const response = await petstore.fetch('http://fake.test/v1/pets', {
      headers: { authorization: 'Bearer main-key-0123', 'petstore-sandbox': sandbox.selector },
    });
    expect((await response.json()).map((pet: { name: string }) => pet.name)).toEqual(['Rex']);
  });
});
