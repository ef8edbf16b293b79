/** petstore-service/workers: the Pet Store as a Cloudflare Worker, pets in D1, exact rate limits in Durable Objects, keys from a secret. */
import { createPetStore } from '../../compose/index.ts';
import { ApiError, assertKnownOptions, errorReply, parseApiKeys, PET_STORE_OPTION_NAMES, render, type PetStoreOptions } from '../../src/index.ts';
import type { PetStore } from '../../compose/handler.ts';
import type { D1DatabaseLike } from '../../stores/sql/d1-client.ts';
import { migrateD1 } from '../../stores/sql/d1-migrations.ts';
import { d1PetStorage } from '../../stores/sql/d1-pet-storage.ts';
import { durableObjectLimitStore, type DurableObjectNamespaceLike } from '../../stores/durable-objects/limit-store.ts';

export { PetStoreLimits } from '../../stores/durable-objects/limits-object.ts';
export { durableObjectLimitStore, type DurableObjectLimitStoreOptions, type DurableObjectNamespaceLike } from '../../stores/durable-objects/limit-store.ts';
export { d1PetStorage } from '../../stores/sql/d1-pet-storage.ts';
export { migrateD1 } from '../../stores/sql/d1-migrations.ts';
export type { D1DatabaseLike } from '../../stores/sql/d1-client.ts';

/**
 * The bindings the Worker reads (wrangler.toml, `wrangler secret put`).
 *
 * @example
 * const env: PetStoreEnv = { PETSTORE_DB: db, PETSTORE_LIMITS: namespace, PETSTORE_API_KEYS: 'my-key:pro' };
 */
export interface PetStoreEnv {
  /** The D1 database pets live in; its tables are made on the first request. */
  readonly PETSTORE_DB?: D1DatabaseLike;
  /** The Durable Object namespace of the exported {@link PetStoreLimits} class. */
  readonly PETSTORE_LIMITS?: DurableObjectNamespaceLike;
  /** `key:plan,…`, as `npm start` reads it: a secret (`wrangler secret put PETSTORE_API_KEYS`). */
  readonly PETSTORE_API_KEYS?: string;
}

/**
 * Options of {@link petStoreWorker}: those of `createPetStore` except what the bindings decide
 * (keys, stores, the caller's address), plus where the API is mounted.
 *
 * @example
 * const options: PetStoreWorkerOptions = { mountPath: '/api', cors: ['https://app.example.com'] };
 */
export interface PetStoreWorkerOptions extends Omit<PetStoreOptions, 'apiKeys' | 'storage' | 'limitStore' | 'clientAddress' | 'trustProxy' | 'admin'> {
  /** The path the Worker serves the API under, as a mount: `/api` serves `/api/v1/pets`. Default `''`. */
  readonly mountPath?: string;
}

/**
 * A Worker's fetch handler, or the part of yours that serves the API.
 *
 * @example
 * export default petStoreWorker();
 */
export interface PetStoreWorker {
  fetch(request: Request, env: PetStoreEnv): Promise<Response>;
}

const BINDINGS_HELP = 'see docs/workers.md';
const NOT_HERE = new Set(['apiKeys', 'storage', 'limitStore', 'clientAddress', 'trustProxy', 'admin']);

/** A misconfigured Worker's answer to every request: a JSON 500 naming the fix, and the same line once in the Worker's log. */
class Misconfigured extends Error {}

/** The Pet Store for one set of bindings, made on the first request that brings them. */
function storeFor(env: PetStoreEnv, options: PetStoreOptions): { petstore: PetStore; ready: () => Promise<void> } {
  const { PETSTORE_DB: db, PETSTORE_LIMITS: limits, PETSTORE_API_KEYS: keys } = env ?? {};
  if (typeof db?.prepare !== 'function')
    throw new Misconfigured(`no D1 database is bound as PETSTORE_DB: add [[d1_databases]] binding = "PETSTORE_DB" to wrangler.toml; ${BINDINGS_HELP}`);
  if (typeof limits?.idFromName !== 'function') {
    throw new Misconfigured(
      `no Durable Object namespace is bound as PETSTORE_LIMITS: export PetStoreLimits from the Worker and bind it in wrangler.toml; ${BINDINGS_HELP}`,
    );
  }
  if (typeof keys !== 'string' || keys.trim() === '')
    throw new Misconfigured(`PETSTORE_API_KEYS is not set: run wrangler secret put PETSTORE_API_KEYS (key:plan,…); ${BINDINGS_HELP}`);
  let apiKeys: ReturnType<typeof parseApiKeys>;
  try {
    apiKeys = parseApiKeys(keys);
  } catch (error) {
    throw new Misconfigured(`PETSTORE_API_KEYS: ${(error as Error).message}`);
  }
  const petstore = createPetStore({
    ...options,
    apiKeys,
    storage: d1PetStorage(db),
    limitStore: durableObjectLimitStore(limits),
    // Cloudflare sets CF-Connecting-IP to the address the request came from, replacing any a client sent.
    clientAddress: (request) => request.headers.get('cf-connecting-ip') ?? undefined,
  });
  let migrated: Promise<void> | undefined;
  // Once per Worker instance; a failed migration is tried again by the next request.
  const ready = () => (migrated ??= migrateD1(db).catch((error: unknown) => ((migrated = undefined), Promise.reject(error))));
  return { petstore, ready };
}

/**
 * The Pet Store as a Cloudflare Worker: pets in the D1 database bound as `PETSTORE_DB` (migrated
 * on the first request), rate limits exact in the {@link PetStoreLimits} Durable Objects bound as
 * `PETSTORE_LIMITS`, keys from the `PETSTORE_API_KEYS` secret, the caller from `CF-Connecting-IP`.
 * A binding missing or wrong is a JSON 500 naming the fix, on every request until it is bound.
 * Options are checked now, so a typo fails the deploy, not a request.
 *
 * @example
 * // worker.js, with wrangler.toml from docs/workers.md
 * import { petStoreWorker } from 'petstore-service/workers';
 * export { PetStoreLimits } from 'petstore-service/workers';
 * export default petStoreWorker();
 */
export function petStoreWorker(options: PetStoreWorkerOptions = {}): PetStoreWorker {
  assertKnownOptions(options, [...PET_STORE_OPTION_NAMES.filter((name) => !NOT_HERE.has(name)), 'mountPath'], 'petStoreWorker');
  const { mountPath, ...storeOptions } = options;
  if (mountPath !== undefined && (typeof mountPath !== 'string' || !/^(\/[^/?#]+)*$/.test(mountPath))) {
    throw new TypeError('petStoreWorker: mountPath must be "" or path segments like "/api", without a trailing slash');
  }
  // Checked now with stand-ins for what the bindings bring later.
  createPetStore({ ...storeOptions, onError: () => {} });
  const stores = new WeakMap<object, ReturnType<typeof storeFor>>();
  const told = new Set<string>();
  const onError = storeOptions.onError ?? ((error: unknown) => console.error('petstore-service:', error));
  return {
    async fetch(request, env) {
      try {
        let store = stores.get(env);
        if (!store) stores.set(env, (store = storeFor(env, storeOptions)));
        await store.ready();
        return await store.petstore.fetch(request, { mountPath });
      } catch (error) {
        if (!(error instanceof Misconfigured)) return render(errorReply(error, onError));
        if (!told.has(error.message)) told.add(error.message), onError(new Error(`petstore-service: ${error.message}`));
        return render(errorReply(new ApiError({ status: 500, code: 'internal_error', message: error.message }), onError));
      }
    },
  };
}
