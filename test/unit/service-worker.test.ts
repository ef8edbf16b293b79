/** servePetStoreInWorker in process, with a stand-in worker scope: which fetches it answers, and its reset and seed. */
import { describe, expect, it } from 'vitest';
import { servePetStoreInWorker } from '../../runtimes/service-worker/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';

/** The worker scope the adapter listens on, holding the fetch listener it adds. */
function workerScope(origin: string) {
  let listener: ((event: { request: Request; respondWith(response: Response | PromiseLike<Response>): void }) => void) | undefined;
  return {
    scope: { location: { origin }, addEventListener: (_type: 'fetch', added: typeof listener) => void (listener = added) },
    /** The response the worker gives `url`, or `undefined` when it lets the request through. */
    async dispatch(url: string, init?: RequestInit): Promise<Response | undefined> {
      let answer: Response | PromiseLike<Response> | undefined;
      listener!({ request: new Request(url, init), respondWith: (response) => void (answer = response) });
      return answer;
    },
  };
}

const storage = () => Object.assign(memoryPetStorage(), { clear: async () => {} });

describe('servePetStoreInWorker', () => {
  it('answers fetches under the base path of the origin it is given, and lets every other request through', async () => {
    const { scope, dispatch } = workerScope('https://app.example');
    servePetStoreInWorker({ scope, origin: 'https://api.example', storage: storage(), apiKeys: { demo: 'pro' } });
    const response = await dispatch('https://api.example/v1/pets', { headers: { authorization: 'Bearer demo' } });
    expect(response?.status).toBe(200);
    expect(await response?.json()).toEqual([]);
    expect(await dispatch('https://app.example/v1/pets')).toBeUndefined();
    expect(await dispatch('https://api.example/v10/pets')).toBeUndefined();
  });

  it('seeds with the defaultStatus that POST /pets would store', async () => {
    const { scope } = workerScope('https://app.example');
    const worker = servePetStoreInWorker({ scope, storage: storage(), defaultStatus: 'available', basePath: '/api' });
    expect(await worker.seed([{ name: 'Rex', categoryId: 1 }])).toEqual([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
  });

  it('tells a warning once, not again after reset(), and still starts reset() with a fresh quota', async () => {
    const { scope, dispatch } = workerScope('https://app.example');
    const told: unknown[] = [];
    const worker = servePetStoreInWorker({
      scope,
      storage: storage(),
      apiKeys: { demo: { perMinute: 1, perDay: 10 } },
      publicUrl: 'https://app.example',
      onError: (error) => told.push(error),
    });
    const get = () => dispatch('https://app.example/v1/pets', { headers: { authorization: 'Bearer demo' } });
    expect((await get())?.status).toBe(200);
    expect((await get())?.status).toBe(429);
    await worker.reset();
    expect((await get())?.status).toBe(200);
    expect(told.map((error) => (error as { code?: string }).code)).toEqual(['PETSTORE_PUBLIC_URL_PATH']);
  });
});
