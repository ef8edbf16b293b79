/**
 * The project's `test`: petstore-service/playwright's, a sandbox per test. With PETSTORE_WORLD=shared,
 * the same fixture the way suites drive a fake backend without sandboxes: every worker in the main
 * world, with its configured keys (PETSTORE_FREE_KEY, PETSTORE_PRO_KEY, PETSTORE_BUSINESS_KEY), reset
 * before each test through `/__admin/reset`.
 */
import { test as base } from '@playwright/test';
import { test as sandboxed, type PetstoreFixtures, type PetstoreOptions, type PetstoreSandbox, type RecordedExchange } from 'petstore-service/playwright';

export { expect } from 'petstore-service/playwright';

/** The main world's controls: the same calls under `/__admin` itself. */
function mainWorld(url: string, adminToken: string): PetstoreSandbox {
  const root = url.replace(/\/+$/, '').replace(/\/v1$/, '');
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${root}/__admin${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`petstore: ${method} /__admin${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const time = async (body?: unknown) => new Date((await call<{ now: string }>(body ? 'POST' : 'GET', '/clock', body)).now);
  const requests = () => call<RecordedExchange[]>('GET', '/requests');
  return {
    id: 'main',
    keys: { free: process.env.PETSTORE_FREE_KEY!, pro: process.env.PETSTORE_PRO_KEY!, business: process.env.PETSTORE_BUSINESS_KEY! },
    // No selector: an empty Petstore-Sandbox is none, and a request with none lands in the main world.
    selector: '',
    url: `${root}/v1`,
    seed: (input) => call('POST', '/seed', input),
    pets: () => call('GET', '/pets'),
    reset: () => call('POST', '/reset'),
    clock: {
      advance: (ms) => time({ advanceMs: ms }),
      set: (date) => time({ set: new Date(date).toISOString() }),
      now: () => time(),
    },
    faults: {
      inject: async (rule) => (await call<{ id: string }>('POST', '/faults', rule)).id,
      remove: (id) => call('DELETE', `/faults/${encodeURIComponent(id)}`),
      clear: () => call('DELETE', '/faults'),
      list: () => call('GET', '/faults'),
    },
    requests,
    // The whole journal: the project's tests ask for no filter.
    count: async () => (await call<{ count: number }>('GET', '/requests/count')).count,
    har: () => call('GET', '/requests.har'),
    async verify({ method, path, status, times }) {
      const found = (await requests()).filter(
        (r) => (method === undefined || r.method === method) && (path === undefined || r.path === path) && (status === undefined || r.status === status),
      ).length;
      if (found !== times) throw new Error(`Expected ${times} request(s) matching ${method ?? '*'} ${String(path ?? '*')} ${status ?? '*'}, got ${found}.`);
    },
  };
}

const shared: typeof sandboxed = base.extend<PetstoreFixtures & PetstoreOptions>({
  petstoreUrl: [undefined, { option: true }],
  petstoreAdminToken: [undefined, { option: true }],
  petstore: async ({ petstoreUrl, petstoreAdminToken }, use) => {
    const world = mainWorld(petstoreUrl ?? process.env.PETSTORE_URL!, petstoreAdminToken ?? process.env.PETSTORE_ADMIN_TOKEN!);
    await world.reset();
    await use(world);
  },
});

export const test = process.env.PETSTORE_WORLD === 'shared' ? shared : sandboxed;
