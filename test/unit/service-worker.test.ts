/** servePetStoreInWorker in process, with a stand-in worker scope: which fetches it answers, its reset and seed, the pets it generates on install, and the control messages of start(). */
import { describe, expect, it, vi } from 'vitest';
import { generatedPets } from '../../controls/index.ts';
import { servePetStoreInWorker } from '../../runtimes/service-worker/index.ts';
import { CONTROL, RESET, type ControlOperation, type WorkerReply } from '../../runtimes/service-worker/protocol.ts';
import type { IdbPetStorage } from '../../stores/idb/index.ts';
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

/** A stand-in for a real worker scope (it has skipWaiting), holding its fetch and message listeners. */
function lifecycleScope(origin: string) {
  const listeners = new Map<string, (event: never) => void>();
  const scope = {
    location: { origin },
    skipWaiting: async () => {},
    clients: { claim: async () => {} },
    addEventListener: (type: string, listener: (event: never) => void) => void listeners.set(type, listener),
  };
  return {
    scope,
    /** What `fetch(url, init)` from a page gets. */
    async dispatch(url: string, init?: RequestInit): Promise<Response> {
      let answer: Response | PromiseLike<Response> | undefined;
      const listener = listeners.get('fetch') as (event: { request: Request; respondWith(response: Response | PromiseLike<Response>): void }) => void;
      listener({ request: new Request(url, init), respondWith: (response) => void (answer = response) });
      return answer!;
    },
    /** The browser installing the worker (once per version of its script): resolves when the work it waits for is done. */
    async install(): Promise<void> {
      const waited: Promise<unknown>[] = [];
      (listeners.get('install') as (event: { waitUntil(work: Promise<unknown>): void }) => void)({ waitUntil: (work) => void waited.push(work) });
      await Promise.all(waited);
    },
    /** The worker's reply to a message a page posts with a port, as start() does. */
    send(data: object): Promise<WorkerReply> {
      return new Promise((resolve) => {
        const listener = listeners.get('message') as (event: {
          data: unknown;
          ports: { postMessage(reply: WorkerReply): void }[];
          waitUntil(work: Promise<unknown>): void;
        }) => void;
        listener({ data, ports: [{ postMessage: resolve }], waitUntil: () => {} });
      });
    },
  };
}

/** A worker on the stand-in scope, `demo` its pro key, and its message and fetch ends. */
function controlledWorker(options: { sandboxes?: number; generate?: { count: number; seed?: number } } = {}, storage?: IdbPetStorage) {
  const { scope, dispatch, send, install } = lifecycleScope('https://app.example');
  const cleared = vi.fn(async () => {});
  const worker = servePetStoreInWorker({
    scope,
    storage: storage ?? Object.assign(memoryPetStorage(), { clear: cleared }),
    apiKeys: { demo: 'pro' },
    ...options,
  });
  const control = (op: ControlOperation, sandbox?: string, ...args: unknown[]) => send({ type: CONTROL, op, sandbox, args });
  const get = (key: string, path = '/v1/pets') => dispatch(`https://app.example${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { worker, control, get, send, install, cleared };
}

describe('servePetStoreInWorker, driven by the messages of start()', () => {
  it('opens a sandbox whose pets, ids, clock and faults are its own, and sends the requests with its keys to it', async () => {
    const { worker, control, get } = controlledWorker();
    const opened = await control('open', undefined, [{ name: 'Rex', categoryId: 1 }]);
    const { id, keys } = (opened as { value: { id: string; keys: { pro: string } } }).value;
    expect(await (await get(keys.pro)).json()).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
    expect(await (await get('demo')).json()).toEqual([]);

    const mainTime = worker.clock.now();
    expect(await control('set', id, '2030-01-01T00:00:00Z')).toEqual({ ok: true, value: Date.parse('2030-01-01T00:00:00Z') });
    expect(await control('advance', id, 60_000)).toEqual({ ok: true, value: Date.parse('2030-01-01T00:01:00Z') });
    expect(worker.clock.now() - mainTime).toBeLessThan(60_000);

    expect(await control('inject', id, { status: 503, times: 'always' })).toMatchObject({ ok: true, value: expect.any(String) });
    expect(await control('list', id)).toMatchObject({ ok: true, value: [{ status: 503, left: 'always' }] });
    expect((await get(keys.pro)).status).toBe(503);
    expect((await get('demo')).status).toBe(200);
    expect(await control('list')).toEqual({ ok: true, value: [] });
    expect(await control('clear', id)).toEqual({ ok: true });
    expect((await get(keys.pro)).status).toBe(200);
  });

  it('moves the main world clock, seeds it, and gives its faults to the configured keys only', async () => {
    const { control, get } = controlledWorker();
    expect(await control('seed', undefined, [{ name: 'Kit', categoryId: 2 }])).toMatchObject({ ok: true, value: [{ id: 1, name: 'Kit' }] });
    const opened = (await control('open')) as { value: { keys: { pro: string } } };
    await control('inject', undefined, { status: 429, times: 'always' });
    expect((await get('demo')).status).toBe(429);
    expect(await (await get(opened.value.keys.pro)).json()).toEqual([]);
    expect(await control('set', undefined, 0)).toEqual({ ok: true, value: 0 });
    expect(await control('now')).toEqual({ ok: true, value: 0 });
  });

  it('answers a bad fault rule or seed with the TypeError naming the field, and opens no sandbox for a bad seed', async () => {
    const { control } = controlledWorker({ sandboxes: 1 });
    expect(await control('inject', undefined, { status: 200 })).toEqual({ ok: false, name: 'TypeError', message: expect.stringMatching(/status/) });
    expect(await control('open', undefined, [{ name: '' }])).toEqual({
      ok: false,
      name: 'TypeError',
      message: expect.stringMatching(/^seed: pet 0 is invalid: name/),
    });
    expect(await control('open')).toMatchObject({ ok: true });
    expect(await control('open')).toEqual({ ok: false, name: 'Error', message: expect.stringMatching(/^sandbox: 1 sandboxes are open/) });
  });

  it('deletes a sandbox: its keys get 401 and its controls are refused, naming it', async () => {
    const { control, get } = controlledWorker();
    const { id, keys } = ((await control('open')) as { value: { id: string; keys: { free: string } } }).value;
    expect((await get(keys.free)).status).toBe(200);
    expect(await control('delete', id)).toEqual({ ok: true });
    expect((await get(keys.free)).status).toBe(401);
    expect(await control('pets', id)).toEqual({ ok: false, name: 'Error', message: expect.stringContaining(`sandbox ${id} is gone`) });
  });

  it('resets the main world on the reset message every version of the worker knows: its IndexedDB emptied, its faults cleared', async () => {
    const { worker, send, get, cleared } = controlledWorker();
    worker.faults.inject({ status: 500, times: 'always' });
    expect((await get('demo')).status).toBe(500);
    expect(await send({ type: RESET })).toEqual({ ok: true });
    expect(cleared).toHaveBeenCalledOnce();
    expect((await get('demo')).status).toBe(200);
  });
});

describe('servePetStoreInWorker with generate', () => {
  const names = (pets: readonly { name: string }[]) => pets.map((pet) => pet.name);
  const stored = async (control: ReturnType<typeof controlledWorker>['control']) =>
    ((await control('pets')) as { value: { id: number; name: string }[] }).value;

  it('stores the generated pets as it installs over a storage that holds no pets', async () => {
    const { control, install } = controlledWorker({ generate: { count: 25, seed: 7 } });
    expect(await stored(control)).toEqual([]);
    await install();
    const pets = await stored(control);
    expect(names(pets)).toEqual(names(generatedPets({ count: 25, seed: 7 })));
    expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('adds none when it installs over a storage that already holds pets, as a new worker over a used demo does', async () => {
    const { worker, control, install } = controlledWorker({ generate: { count: 25 } });
    await worker.seed([{ name: 'Kept', categoryId: 1 }]);
    await install();
    expect(names(await stored(control))).toEqual(['Kept']);
  });

  it('adds none when the browser starts it again without installing it, so a demo reset stays empty', async () => {
    // Pets that outlive the worker, and that reset() empties, as IndexedDB's do.
    let pets = memoryPetStorage();
    const storage: IdbPetStorage = {
      create: (pet) => pets.create(pet),
      createOnce: (...args) => pets.createOnce(...args),
      get: (id) => pets.get(id),
      list: (query) => pets.list(query),
      clear: async () => void (pets = memoryPetStorage()),
    };
    const first = controlledWorker({ generate: { count: 3 } }, storage);
    await first.install();
    expect(await stored(first.control)).toHaveLength(3);
    await first.worker.reset();
    const restarted = controlledWorker({ generate: { count: 3 } }, storage);
    expect(await (await restarted.get('demo')).json()).toEqual([]);
    expect(await stored(restarted.control)).toEqual([]);
  });

  it('refuses a count or seed out of range at once, with a TypeError naming the option', () => {
    expect(() => controlledWorker({ generate: { count: 0 } })).toThrow(
      new TypeError('servePetStoreInWorker: generate.count must be a whole number from 1 to 10000'),
    );
    expect(() => controlledWorker({ generate: { count: 1, seed: -1 } })).toThrow(
      /^servePetStoreInWorker: generate\.seed must be a whole number from 0 to 4294967295$/,
    );
  });
});
