/** petstore-service/service-worker: the Pet Store answering fetches inside a service worker, offline. */
import { takeoverClock, type ManualClock, type Faults, type GenerateOptions, petsToSeed, type SeedInput, workerLayers } from '../../controls/without-admin.ts';
import { compose, toPetStore } from '../../compose/compose.ts';
import type { PetStore } from '../../compose/handler.ts';
import { adminBound, resolveOptions, type Pet, type PetStoreOptions } from '../../src/index.ts';
import { idbPetStorage, type IdbPetStorage } from '../../stores/idb/index.ts';
import { control, type WorkerWorlds } from './controls.ts';
import { CLAIM, CONTROL, RESET, type ControlMessage, type WorkerReply } from './protocol.ts';

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
  /** The most sandboxes a page may have open at once, 1 to 100,000. Default 1,000. */
  readonly sandboxes?: number;
  /** A sandbox unused this many minutes is deleted, 1 to 10,080. Default 30. */
  readonly sandboxIdleMinutes?: number;
  /**
   * Generated pets (`{ count, seed }`, as `seed({ generate })` takes them) the worker stores when
   * the browser installs it, once per version of its script, and only into a storage that holds no
   * pets then: a demo opens with them, while a worker the browser merely starts again, or a new
   * version over pets already there, adds none, so a reset demo stays empty. A real service
   * worker's scope only (a stand-in `scope` without `skipWaiting` gets no install). Default: none.
   */
  readonly generate?: GenerateOptions;
}

/**
 * The Pet Store running in a worker, with the controls of its main world (the configured keys'):
 * the same as `start()` gives a page.
 *
 * @example
 * const demo: WorkerPetStore = servePetStoreInWorker({ apiKeys: { 'demo-key': 'pro' } });
 * demo.clock.advance(60_000);
 */
export interface WorkerPetStore {
  /** The handler answering, sandboxes included. */
  readonly petstore: PetStore;
  /**
   * Empties the storage, the `generate` option's pets included (they come back only when a worker
   * installs over an empty storage), and forgets rate-limit counters, bans and faults: ids start at
   * 1 again. The clock stays where it is.
   */
  reset(): Promise<void>;
  /** Stores pets (validated like `POST /pets`), or `{ generate: { count, seed } }` generated ones, and returns them with their ids. */
  seed(input: SeedInput): Promise<Pet[]>;
  /** The clock quotas, bans and the sunset date follow: the real one until moved. */
  readonly clock: ManualClock;
  /** Error answers, network failures and delays for the next requests of the main world. */
  readonly faults: Faults;
}

/**
 * Answers every fetch for `<origin><basePath>/…` with the Pet Store; other requests go on to
 * the network (or to the worker's other `fetch` listeners) untouched.
 *
 * In a real service worker it also takes control at once, so the page that registers it is
 * answered on its first load: it skips waiting on install and claims every page in its scope on
 * activate. It answers `start()` of `petstore-service/browser`: claiming a page on request (one
 * loaded with Shift+Reload), and the controls (`reset()`, `seed()`, the clock, faults) of its main
 * world and of the sandboxes a page opens. A request carrying a sandbox's key is that sandbox's.
 *
 * @example
 * // sw.js
 * import { servePetStoreInWorker } from 'petstore-service/service-worker';
 * servePetStoreInWorker({ apiKeys: { 'demo-key': 'pro' }, generate: { count: 25, seed: 7 } }); // 25 pets when installed over an empty IndexedDB
 */
export function servePetStoreInWorker(options: ServiceWorkerPetStoreOptions = {}): WorkerPetStore {
  const {
    storage = idbPetStorage(),
    scope = globalThis as unknown as WorkerScopeLike,
    origin,
    sandboxes: most,
    sandboxIdleMinutes,
    generate,
    ...storeOptions
  } = options;
  // Generated now, so a wrong count or seed fails the script at once, as a wrong option does.
  const generated = generate && petsToSeed({ generate }, 'servePetStoreInWorker');
  // Resolved once, so each warning is told once; every reset gets fresh rate-limit state, unless the caller gave its own store.
  const config = resolveOptions({ ...storeOptions, storage });
  const bounds = {
    sandboxes: adminBound('sandboxes', most, 'sandboxes'),
    sandboxIdleMinutes: adminBound('sandboxIdleMinutes', sandboxIdleMinutes, 'sandboxIdleMinutes'),
    // A page reads a world's journal for its HAR (har()): the newest thousand a world, all worlds within the one budget of bytes below.
    journal: 1_000,
    journalMiB: adminBound('journalMiB', undefined, 'journalMiB'),
    // Its sandboxes' pets, in memory; the main world's are in IndexedDB, which bounds them.
    pets: adminBound('pets', undefined, 'pets'),
  };
  const layers = workerLayers({ storage, limitStore: storeOptions.limitStore });
  const composed = compose({ config, clock: takeoverClock(config.now), layers, bounds });
  const main = composed.controls!;
  const petstore = toPetStore(composed);
  const base = `${origin ?? scope.location.origin}${config.basePath}`;
  const worker: WorkerPetStore = {
    petstore,
    async reset() {
      await storage.clear();
      main.reset();
    },
    seed: main.seed,
    clock: main.clock,
    faults: main.faults,
  };

  // The command's rule for a durable store: seed only one that holds no pets, or pets a user deleted would come back.
  const install = async () => {
    if (generated && (await storage.list({ after: 0, limit: 1 })).length === 0) await main.seed(generated);
  };
  if (isLifecycleScope(scope)) takeControlAtOnce(scope, { main, sandboxes: composed.sandboxes!, reset: worker.reset }, install);
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
function takeControlAtOnce(scope: LifecycleScope, worlds: WorkerWorlds, install: () => Promise<void>): void {
  // The install waits for the pets, so the page the worker then claims lists them on its first load.
  scope.addEventListener('install', (event) => event.waitUntil(Promise.all([scope.skipWaiting(), install()])));
  scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));
  scope.addEventListener('message', (event) => {
    const message = event.data as { type?: unknown } | null;
    const type = message?.type;
    const work =
      type === CLAIM ? scope.clients.claim() : type === RESET ? worlds.reset() : type === CONTROL ? control(worlds, message as ControlMessage) : undefined;
    if (!work) return;
    const reply = (answer: WorkerReply) => event.ports[0]?.postMessage(answer);
    event.waitUntil(
      work.then(
        (value: unknown) => reply({ ok: true, value }),
        (error: unknown) => reply({ ok: false, name: (error as Error)?.name, message: String((error as Error)?.message ?? error) }),
      ),
    );
  });
}
