/** A Worker wired wrong, on local workerd: each missing or wrong binding gets a JSON 500 that names the fix, at once, and the Worker recovers when it is bound. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from './workerd.ts';

/** petStoreWorker with the bindings the `?without=` names taken away (and `?with=NAME:value` added), per request. */
const WORKER = `
import { petStoreWorker } from './runtimes/workers/index.ts';
export { PetStoreLimits } from './runtimes/workers/index.ts';
const petstore = petStoreWorker();
export const { PetStoreFake } = petstore;
export default {
  fetch(request, env) {
    const url = new URL(request.url);
    const bound = { ...env };
    for (const name of url.searchParams.getAll('without')) delete bound[name];
    for (const pair of url.searchParams.getAll('with')) bound[pair.slice(0, pair.indexOf(':'))] = pair.slice(pair.indexOf(':') + 1);
    return petstore.fetch(request, bound);
  },
};`;

let worker: Awaited<ReturnType<typeof startWorker>>;
let origin: URL;
const logged: string[] = [];
beforeAll(async () => {
  worker = await startWorker(WORKER, {
    bindings: { PETSTORE_API_KEYS: 'k:free' },
    d1Databases: { PETSTORE_DB: 'misconfigured' },
    durableObjects: { PETSTORE_LIMITS: 'PetStoreLimits', PETSTORE_FAKE: 'PetStoreFake' },
    log: (text) => logged.push(text),
  });
  origin = worker.origin;
}, 60_000);
afterAll(() => worker?.dispose());

async function get(query: string) {
  const response = await fetch(new URL(`/v1/pets?${query}`, origin), { headers: { authorization: 'Bearer k' } });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
}

describe('petStoreWorker on a Worker wired wrong', () => {
  it.each([
    ['without=PETSTORE_DB', /no D1 database is bound as PETSTORE_DB: add \[\[d1_databases\]\] binding = "PETSTORE_DB" to wrangler\.toml/],
    ['without=PETSTORE_LIMITS', /no Durable Object namespace is bound as PETSTORE_LIMITS: export PetStoreLimits/],
    ['without=PETSTORE_API_KEYS', /PETSTORE_API_KEYS is not set: run wrangler secret put PETSTORE_API_KEYS/],
    ['with=PETSTORE_API_KEYS:k:gold', /^PETSTORE_API_KEYS: API key entry 1: an unknown plan; plans: free, pro/],
    ['with=PETSTORE_ADMIN_TOKEN:short', /PETSTORE_ADMIN_TOKEN must be 16 or more characters/],
    [
      'with=PETSTORE_ADMIN_TOKEN:admin-token-0123456789&without=PETSTORE_FAKE',
      /PETSTORE_ADMIN_TOKEN is set but no Durable Object namespace is bound as PETSTORE_FAKE/,
    ],
  ])('answers a request %s with a JSON 500 naming the fix', async (query, message) => {
    const answer = await get(query);
    expect(answer).toMatchObject({ status: 500, type: 'application/json', body: { code: 'internal_error', status: 500 } });
    expect(answer.body.message).toMatch(message);
  });

  it('tells the log each problem once, however many requests meet it', async () => {
    await get('without=PETSTORE_DB');
    await get('without=PETSTORE_DB');
    const lines = logged
      .join('')
      .split('\n')
      .filter((line) => line.includes('no D1 database is bound as PETSTORE_DB'));
    expect(lines).toHaveLength(1);
  });

  it('serves the API once every binding is there', async () => {
    expect(await get('')).toMatchObject({ status: 200, body: [] });
  });
});
