/** petstore-service/workers: the Pet Store as a Cloudflare Worker, pets in D1, exact rate limits in Durable Objects, keys from a secret. */
import { ApiError, assertKnownOptions, errorReply, PET_STORE_OPTION_NAMES, render, resolveOptions, type PetStoreOptions } from '../../src/index.ts';
import { Misconfigured, type PetStoreEnv, type Serve, serveWith } from './bindings.ts';
import { fakeBackendClass, type PetStoreFakeClass } from './fake-backend.ts';

export type { PetStoreEnv } from './bindings.ts';
export type { PetStoreFakeClass } from './fake-backend.ts';
export { PetStoreLimits } from '../../stores/durable-objects/limits-object.ts';
export { durableObjectLimitStore, type DurableObjectLimitStoreOptions, type DurableObjectNamespaceLike } from '../../stores/durable-objects/limit-store.ts';
export { d1PetStorage } from '../../stores/sql/d1-pet-storage.ts';
export { migrateD1 } from '../../stores/sql/d1-migrations.ts';
export type { D1DatabaseLike } from '../../stores/sql/d1-client.ts';

/**
 * Options of {@link petStoreWorker}: those of `createPetStore` except what the bindings decide
 * (keys, stores, the caller's address, the admin API), plus where the API is mounted.
 *
 * @example
 * const options: PetStoreWorkerOptions = { mountPath: '/api', cors: ['https://app.example.com'] };
 */
export interface PetStoreWorkerOptions
  extends Omit<PetStoreOptions, 'apiKeys' | 'storage' | 'limitStore' | 'clientAddress' | 'trustProxy' | 'proxyHeader' | 'admin'> {
  /** The path the Worker serves the API under, as a mount: `/api` serves `/api/v1/pets`. Default `''`. */
  readonly mountPath?: string;
}

/**
 * A Worker's fetch handler, or the part of yours that serves the API, and the fake backend's
 * Durable Object class made from the same options.
 *
 * @example
 * const petstore = petStoreWorker();
 * export default petstore;
 * export const { PetStoreFake } = petstore;
 */
export interface PetStoreWorker {
  fetch(request: Request, env: PetStoreEnv): Promise<Response>;
  /**
   * The fake backend's Durable Object class, serving with this Worker's options: export it from
   * the Worker's script as `PetStoreFake` and bind it as `PETSTORE_FAKE` (docs/workers.md). Used
   * only with the `PETSTORE_ADMIN_TOKEN` secret.
   */
  readonly PetStoreFake: PetStoreFakeClass;
}

/** Options the bindings decide, refused by name. */
const FROM_BINDINGS = new Set(['apiKeys', 'storage', 'limitStore', 'clientAddress', 'trustProxy', 'proxyHeader', 'admin']);

/** Whether `pathname` is `mountPath` or below it. */
const isBelow = (pathname: string, mountPath: string) => pathname === mountPath || pathname.startsWith(`${mountPath}/`);

/** The JSON 404 of a path outside the mount: where the API and the admin API are. */
function outsideMount(mountPath: string, basePath = '/v1'): ApiError {
  const message = `No such path: the Pet Store is under ${mountPath}, its API at ${mountPath}${basePath} and its admin API (if on) at ${mountPath}/__admin.`;
  return new ApiError({ status: 404, code: 'not_found', message });
}

/**
 * The Pet Store as a Cloudflare Worker: pets in the D1 database bound as `PETSTORE_DB` (migrated
 * on the first request), rate limits exact in the `PetStoreLimits` Durable Objects bound as
 * `PETSTORE_LIMITS`, keys from the `PETSTORE_API_KEYS` secret, the caller from `CF-Connecting-IP`.
 * With a `PETSTORE_ADMIN_TOKEN` secret it is a fake backend instead, admin API on: the main world's
 * requests go to one object of the Durable Object class it returns as `PetStoreFake`, made from the
 * same options, and each sandbox's to one of its own.
 * A binding missing or wrong is a JSON 500 naming the fix, on every request until it is bound.
 * Options are checked now, so a typo fails the deploy, not a request. docs/workers.md has the
 * wrangler.toml.
 *
 * @example
 * // worker.js
 * import { petStoreWorker } from 'petstore-service/workers';
 * export { PetStoreLimits } from 'petstore-service/workers';
 * const petstore = petStoreWorker();
 * export default petstore;
 * export const { PetStoreFake } = petstore; // the fake backend, with the PETSTORE_ADMIN_TOKEN secret
 */
export function petStoreWorker(options: PetStoreWorkerOptions = {}): PetStoreWorker {
  const known = PET_STORE_OPTION_NAMES.filter((name) => !FROM_BINDINGS.has(name));
  assertKnownOptions(options, [...known, 'mountPath'], 'petStoreWorker');
  const { mountPath, ...storeOptions } = options;
  if (mountPath !== undefined && (typeof mountPath !== 'string' || !/^(\/[^/?#]+)*$/.test(mountPath))) {
    throw new TypeError('petStoreWorker: mountPath must be "" or path segments like "/api", without a trailing slash');
  }
  if (storeOptions.onError !== undefined && typeof storeOptions.onError !== 'function') throw new TypeError('onError must be a function');
  // Checked now as createPetStore checks them, quietly (the store the bindings make tells its
  // warnings), without building a store at the Worker's cold start: what the bindings bring comes later.
  resolveOptions({ ...storeOptions, onError: () => {} });
  const onError = storeOptions.onError ?? ((error: unknown) => console.error('petstore-service:', error));
  // Bindings are fixed for a Worker's life, so each env object is read once.
  const served = new WeakMap<object, Serve>();
  const told = new Set<string>();
  return {
    PetStoreFake: fakeBackendClass(storeOptions, mountPath),
    async fetch(request, env) {
      try {
        // The Worker's other routes came first: a path outside the mount is no one's, and its 404 says where the store is.
        if (mountPath && !isBelow(new URL(request.url).pathname, mountPath)) return render(errorReply(outsideMount(mountPath, storeOptions.basePath), onError));
        let serve = served.get(env);
        if (!serve) served.set(env, (serve = serveWith(env, storeOptions)));
        return await serve(request, mountPath);
      } catch (error) {
        if (!(error instanceof Misconfigured)) return render(errorReply(error, onError));
        if (!told.has(error.message)) told.add(error.message), onError(new Error(`petstore-service: ${error.message}`));
        return render(errorReply(new ApiError({ status: 500, code: 'internal_error', message: error.message }), onError));
      }
    },
  };
}
