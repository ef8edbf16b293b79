/**
 * Two petStoreWorker calls with different options in one script, each a fake backend in its own
 * Durable Object namespace, on local workerd: each object serves with the options of the Worker
 * that forwards to it, not with whichever call ran last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from './workerd.ts';

/** Worker A serves under /va, Worker B under /vb; each forwards to the namespace bound for it as its PETSTORE_FAKE. */
const WORKER = `
import { petStoreWorker } from './runtimes/workers/index.ts';
const a = petStoreWorker({ basePath: '/va' });
const b = petStoreWorker({ basePath: '/vb' });
export const FakeA = a.PetStoreFake;
export const FakeB = b.PetStoreFake;
export default {
  fetch(request, env) {
    const worker = new URL(request.url).pathname.startsWith('/va') ? a : b;
    return worker.fetch(request, { ...env, PETSTORE_FAKE: worker === a ? env.FAKE_A : env.FAKE_B });
  },
};`;

const KEY = 'fake-key-0123456789';
let worker: Awaited<ReturnType<typeof startWorker>>;
let origin: URL;
beforeAll(async () => {
  worker = await startWorker(WORKER, {
    bindings: { PETSTORE_API_KEYS: `${KEY}:free`, PETSTORE_ADMIN_TOKEN: 'admin-token-0123456789' },
    durableObjects: { FAKE_A: 'FakeA', FAKE_B: 'FakeB' },
  });
  origin = worker.origin;
}, 60_000);
afterAll(() => worker?.dispose());

describe('two fake-backend Workers with different options in one script', () => {
  it.each(['/va', '/vb'])('serve the API under each one’s own basePath (%s)', async (basePath) => {
    const response = await fetch(new URL(`${basePath}/pets`, origin), { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });
});
