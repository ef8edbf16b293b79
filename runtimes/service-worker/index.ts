/** petstore-service/service-worker: the Pet Store answering fetches inside a service worker, offline. */
import { compose } from '../../compose/compose.ts';
import type { PetStore } from '../../compose/handler.ts';
import { toPetStore } from '../../compose/pet-store.ts';
import { memoryLimitStore, resolveOptions, seedPets, type Pet, type PetStoreOptions } from '../../src/index.ts';
import { idbPetStorage, type IdbPetStorage } from '../../stores/idb/index.ts';
import { CLAIM, RESET, type WorkerReply } from './protocol.ts';

/** The parts of a fetch event and of the worker's global scope this adapter uses. */
interface FetchEventLike {
  readonly request: Request;
  respondWith(response: Response | PromiseLike<Response>): void;
}
interface WorkerScopeLike {
  readonly location: { readonly origin: string };
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
}

/** The lifecycle parts of a real ServiceWorkerGlobalScope, which a stand-in `scope` may leave out. */
interface ExtendableEventLike {
  waitUntil(promise: Promise<unknown>): void;
}
interface MessageEventLike extends ExtendableEventLike {
  readonly data: unknown;
  readonly ports: readonly { postMessage(reply: WorkerReply): void }[];
}
interface LifecycleScope {
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
}

/** Options of {@link servePetStoreInWorker}. */
export interface ServiceWorkerPetStoreOptions extends Omit<PetStoreOptions, 'storage'> {
  /** Where pets live. Default: {@link idbPetStorage}, so they survive reloads and restarts. */
  readonly storage?: IdbPetStorage;
  /** The origin whose requests under `basePath` are answered. Default: the worker's own origin. */
  readonly origin?: string;
  /**
   * The worker's global scope. Default: `self`. The install, activate and message listeners that
   * take control at once are added only to a scope with `skipWaiting`, as a real service worker's has.
   */
  readonly scope?: WorkerScopeLike;
}

/** The Pet Store running in a worker, with controls for demos. */
export interface WorkerPetStore {
  /** The handler currently answering. */
  readonly petstore: PetStore;
  /** Empties the storage and forgets rate-limit counters and bans: ids start at 1 again. */
  reset(): Promise<void>;
  /** Stores pets (validated like `POST /pets`) and returns them with their ids. */
  seed(pets: readonly unknown[]): Promise<Pet[]>;
}

/**
 * Answers every fetch for `<origin><basePath>/…` with the Pet Store; other requests go on to
 * the network (or to the worker's other `fetch` listeners) untouched.
 *
 * In a real service worker it also takes control at once, so the page that registers it is
 * answered on its first load: it skips waiting on install and claims every page in its scope on
 * activate. It answers `start()` of `petstore-service/browser`: claiming a page on request (one
 * loaded with Shift+Reload) and `reset()`.
 *
 * @example
 * // sw.js
 * import { servePetStoreInWorker } from 'petstore-service/service-worker';
 * servePetStoreInWorker({ apiKeys: { 'demo-key': 'pro' } });
 */
export function servePetStoreInWorker(options: ServiceWorkerPetStoreOptions = {}): WorkerPetStore {
  const { storage = idbPetStorage(), scope = globalThis as unknown as WorkerScopeLike, origin, ...storeOptions } = options;
  // Resolved once, so each warning is told once; every (re)start gets fresh rate-limit state, unless the caller gave its own store.
  const config = resolveOptions({ ...storeOptions, storage });
  const start = () => toPetStore(compose({ config: storeOptions.limitStore ? config : { ...config, limitStore: memoryLimitStore() } }));
  let petstore = start();
  const base = `${origin ?? scope.location.origin}${config.basePath}`;
  const worker: WorkerPetStore = {
    get petstore() {
      return petstore;
    },
    async reset() {
      await storage.clear();
      petstore = start();
    },
    seed: (pets) => seedPets(storage, pets, config.defaultStatus),
  };

  if (isLifecycleScope(scope)) takeControlAtOnce(scope, worker);
  scope.addEventListener('fetch', (event) => {
    const { url } = event.request;
    if (url !== base && !url.startsWith(`${base}/`) && !url.startsWith(`${base}?`)) return;
    // Every caller of a worker is the same browser: anonymous callers share one address.
    event.respondWith(petstore(event.request, { clientAddress: 'service-worker' }));
  });

  return worker;
}

function isLifecycleScope(scope: WorkerScopeLike): scope is WorkerScopeLike & LifecycleScope {
  return 'skipWaiting' in scope && typeof scope.skipWaiting === 'function';
}

/**
 * A fake backend must answer the page that registered it: without skipWaiting and claim, the
 * first load goes to the network and the worker waits for every tab of an older one to close.
 */
function takeControlAtOnce(scope: LifecycleScope, worker: WorkerPetStore): void {
  scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
  scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));
  scope.addEventListener('message', (event) => {
    const type = (event.data as { type?: unknown } | null)?.type;
    const work = type === CLAIM ? scope.clients.claim() : type === RESET ? worker.reset() : undefined;
    if (!work) return;
    const reply = (message: WorkerReply) => event.ports[0]?.postMessage(message);
    event.waitUntil(
      work.then(
        () => reply({ ok: true }),
        (error: unknown) => reply({ ok: false, message: String((error as Error)?.message ?? error) }),
      ),
    );
  });
}
