/** The example Worker (mounted at /api) as a fake backend on local workerd: a wrong turn near the admin API is a JSON 404 that names where it is. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from './workerd.ts';

/** examples/mount/workers/worker.js as it is, on this checkout's source rather than the built package. */
const WORKER = readFileSync('examples/mount/workers/worker.js', 'utf8').replaceAll("'petstore-service/workers'", "'./runtimes/workers/index.ts'");

const TOKEN = 'admin-token-0123456789';
const asAdmin = { authorization: `Bearer ${TOKEN}` };
let worker: Awaited<ReturnType<typeof startWorker>>;
let origin: URL;
beforeAll(async () => {
  worker = await startWorker(WORKER, {
    bindings: { PETSTORE_API_KEYS: 'k1:free', PETSTORE_ADMIN_TOKEN: TOKEN },
    durableObjects: { PETSTORE_LIMITS: 'PetStoreLimits', PETSTORE_FAKE: 'PetStoreFake' },
  });
  origin = worker.origin;
}, 60_000);
afterAll(() => worker?.dispose());

/** The status, content type and JSON body of `path` on the Worker, asked with the admin token. */
async function answer(path: string, method = 'GET') {
  const response = await fetch(new URL(path, origin), { method, headers: asAdmin });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
}

describe('the example Worker mounted at /api, a fake backend', () => {
  it('serves the admin API at /api/__admin', async () => {
    expect((await fetch(new URL('/api/__admin/reset', origin), { method: 'POST', headers: asAdmin })).status).toBe(204);
    expect(await answer('/api/__admin/pets')).toEqual({ status: 200, type: 'application/json', body: [] });
  });

  it('answers a wrong path under /api/__admin with a JSON 404 that names the admin document under the mount', async () => {
    expect(await answer('/api/__admin/nope')).toEqual({
      status: 404,
      type: 'application/json',
      body: { code: 'not_found', message: 'There is no such path in the admin API; see /api/__admin/openapi.json.', status: 404 },
    });
  });

  it('answers /__admin outside the mount with a JSON 404 that says the admin API is under /api/__admin', async () => {
    for (const path of ['/__admin', '/__admin/reset']) {
      expect(await answer(path)).toEqual({
        status: 404,
        type: 'application/json',
        body: {
          code: 'not_found',
          message: 'No such path: the Pet Store is under /api, its API at /api/v1 and its admin API (if on) at /api/__admin.',
          status: 404,
        },
      });
    }
  });

  it("answers an unknown sandbox's admin path with a JSON 404", async () => {
    const { status, type, body } = await answer('/api/__admin/sandboxes/abcdefghijkl/pets');
    expect({ status, type, code: body.code }).toEqual({ status: 404, type: 'application/json', code: 'not_found' });
  });
});
