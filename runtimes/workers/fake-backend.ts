/** The Durable Object class that serves the Pet Store as a fake backend, admin API on, made from one petStoreWorker's options: one instance answers every request, from memory. */
import { compose } from '../../compose/compose.ts';
import type { PetStore } from '../../compose/handler.ts';
import { toPetStore } from '../../compose/pet-store.ts';
import { controlLayers } from '../../controls/layers.ts';
import { parseApiKeys, resolveOptions, type PetStoreOptions } from '../../src/index.ts';

/** The bindings the fake backend reads; the Worker has checked both before it forwards a request. */
interface FakeBackendEnv {
  readonly PETSTORE_API_KEYS?: string;
  readonly PETSTORE_ADMIN_TOKEN?: string;
}

/**
 * A fake backend's Durable Object class, as Workers instantiates it with the object's state and
 * the Worker's bindings.
 *
 * @example
 * const { PetStoreFake }: { PetStoreFake: PetStoreFakeClass } = petStoreWorker();
 */
export interface PetStoreFakeClass {
  new (state: unknown, env: FakeBackendEnv): { fetch(request: Request): Promise<Response> };
}

/**
 * The fake backend's class for one petStoreWorker call: its options are closed over here, since
 * Workers makes the object itself, with `(state, env)` only, and a request forwarded to it can
 * carry no functions (`onError`, `onRequest`, `onResponse`). Each call gets a class of its own, so
 * two Workers in one script each serve with their own options.
 *
 * @example
 * const PetStoreFake = fakeBackendClass({ cors: '*' }, '/api');
 */
export function fakeBackendClass(options: PetStoreOptions, mountPath: string | undefined): PetStoreFakeClass {
  /**
   * The Pet Store as a fake backend on Workers: with the `PETSTORE_ADMIN_TOKEN` secret bound,
   * petStoreWorker sends every request to one instance of this Durable Object, which serves the
   * API and the admin API under `/__admin` (reset, seed, the clock, faults, the journal) from
   * memory. One instance in the world sees every request, so a reset, a seeded pet or a moved
   * clock is what the next request sees, whichever Worker instance it reaches. Pets and quotas
   * live as long as the object stays awake (Cloudflare evicts an idle one after a minute or
   * two): a fake backend for tests and demos, not D1. Bind it as `PETSTORE_FAKE` (docs/workers.md).
   */
  return class PetStoreFake {
    readonly #env: FakeBackendEnv;
    #petstore: PetStore | undefined;

    constructor(_state: unknown, env: FakeBackendEnv) {
      this.#env = env;
    }

    /** Answers one request the Worker forwarded, as the Worker would have. */
    fetch(request: Request): Promise<Response> {
      // Built as createPetStore builds a store, but without the node:http listener, which a Worker never calls.
      this.#petstore ??= toPetStore(
        compose({
          config: resolveOptions({
            ...options,
            apiKeys: parseApiKeys(this.#env.PETSTORE_API_KEYS ?? ''),
            admin: { token: this.#env.PETSTORE_ADMIN_TOKEN ?? '' },
            // The Worker forwards the request as it came, Cloudflare's CF-Connecting-IP included.
            clientAddress: (incoming) => incoming.headers.get('cf-connecting-ip') ?? undefined,
          }),
          layers: controlLayers,
        }),
      );
      return this.#petstore.fetch(request, { mountPath });
    }
  };
}
