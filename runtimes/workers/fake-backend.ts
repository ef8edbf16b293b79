/** The Durable Object that serves the Pet Store as a fake backend, admin API on: one instance answers every request, from memory. */
import { compose } from '../../compose/compose.ts';
import type { PetStore } from '../../compose/handler.ts';
import { toPetStore } from '../../compose/pet-store.ts';
import { controlLayers } from '../../controls/layers.ts';
import { parseApiKeys, resolveOptions, type PetStoreOptions } from '../../src/index.ts';

/** What the Worker's own petStoreWorker(options) call left for the fake backend: the script runs it wherever it runs this class too. */
let settings: { readonly options: PetStoreOptions; readonly mountPath: string | undefined } = { options: {}, mountPath: undefined };

/** Called by petStoreWorker: the options the fake backend serves with. */
export function rememberFakeBackendSettings(options: PetStoreOptions, mountPath: string | undefined): void {
  settings = { options, mountPath };
}

/** The bindings the fake backend reads; the Worker has checked both before it forwards a request. */
interface FakeBackendEnv {
  readonly PETSTORE_API_KEYS?: string;
  readonly PETSTORE_ADMIN_TOKEN?: string;
}

/**
 * The Pet Store as a fake backend on Workers: with the `PETSTORE_ADMIN_TOKEN` secret bound,
 * petStoreWorker sends every request to one instance of this Durable Object, which serves the
 * API and the admin API under `/__admin` (reset, seed, the clock, faults, the journal) from
 * memory. One instance in the world sees every request, so a reset, a seeded pet or a moved
 * clock is what the next request sees, whichever Worker instance it reaches. Pets and quotas
 * live as long as the object stays awake (Cloudflare evicts an idle one after a minute or
 * two): a fake backend for tests and demos, not D1. Bind it as `PETSTORE_FAKE` (docs/workers.md).
 *
 * @example
 * // worker.js
 * export { PetStoreLimits, PetStoreFake } from 'petstore-service/workers';
 */
export class PetStoreFake {
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
          ...settings.options,
          apiKeys: parseApiKeys(this.#env.PETSTORE_API_KEYS ?? ''),
          admin: { token: this.#env.PETSTORE_ADMIN_TOKEN ?? '' },
          // The Worker forwards the request as it came, Cloudflare's CF-Connecting-IP included.
          clientAddress: (incoming) => incoming.headers.get('cf-connecting-ip') ?? undefined,
        }),
        layers: controlLayers,
      }),
    );
    return this.#petstore.fetch(request, { mountPath: settings.mountPath });
  }
}
