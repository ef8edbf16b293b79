/** A Worker's bindings read into what serves its requests: the Pet Store over D1 and Durable Objects, or the fake backend's object; a binding missing or wrong is named. */
import { compose, toPetStore } from '../../compose/compose.ts';
import { ADMIN_TOKEN_PATTERN, ADMIN_TOKEN_RULE, parseApiKeys, resolveOptions, type PetStoreOptions } from '../../src/index.ts';
import { durableObjectLimitStore, type DurableObjectNamespaceLike } from '../../stores/durable-objects/limit-store.ts';
import type { D1DatabaseLike } from '../../stores/sql/d1-client.ts';
import { migrateD1 } from '../../stores/sql/d1-migrations.ts';
import { d1PetStorage } from '../../stores/sql/d1-pet-storage.ts';
import { sandboxRouter } from './sandbox-router.ts';

/**
 * The bindings the Worker reads (wrangler.toml, `wrangler secret put`).
 *
 * @example
 * const env: PetStoreEnv = { PETSTORE_DB: db, PETSTORE_LIMITS: namespace, PETSTORE_API_KEYS: 'my-key:pro' };
 */
export interface PetStoreEnv {
  /** The D1 database pets live in; its tables are made on the first request. */
  readonly PETSTORE_DB?: D1DatabaseLike;
  /** The Durable Object namespace of the exported `PetStoreLimits` class. */
  readonly PETSTORE_LIMITS?: DurableObjectNamespaceLike;
  /** `key:plan,…`, as `npm start` reads it: a secret (`wrangler secret put PETSTORE_API_KEYS`). */
  readonly PETSTORE_API_KEYS?: string;
  /**
   * Turns the Worker into a fake backend with the admin API under `/__admin`, this its Bearer
   * token (16+ characters): a secret. Unset (the default), `/__admin` is a 404.
   */
  readonly PETSTORE_ADMIN_TOKEN?: string;
  /** The Durable Object namespace of the `PetStoreFake` class petStoreWorker returns, exported from the script: needed only with `PETSTORE_ADMIN_TOKEN`. */
  readonly PETSTORE_FAKE?: DurableObjectNamespaceLike;
}

/** A binding missing or wrong: every request gets a JSON 500 with this message, and the log gets it once. */
export class Misconfigured extends Error {}

const HELP = 'see docs/workers.md';

/** What answers a Worker's requests for one set of bindings. */
export type Serve = (request: Request, mountPath: string | undefined) => Promise<Response>;

const isNamespace = (value: unknown): value is DurableObjectNamespaceLike =>
  typeof (value as DurableObjectNamespaceLike | undefined)?.idFromName === 'function';

function apiKeysOf(keys: string | undefined): ReturnType<typeof parseApiKeys> {
  if (typeof keys !== 'string' || keys.trim() === '')
    throw new Misconfigured(`PETSTORE_API_KEYS is not set: run wrangler secret put PETSTORE_API_KEYS (key:plan,…); ${HELP}`);
  try {
    return parseApiKeys(keys);
  } catch (error) {
    throw new Misconfigured(`PETSTORE_API_KEYS: ${(error as Error).message}`);
  }
}

/** The fake backend: the main world's requests and the admin API's to the main PetStoreFake object, each sandbox's to its own. */
function fakeBackend(env: PetStoreEnv, token: string): Serve {
  apiKeysOf(env.PETSTORE_API_KEYS);
  if (!ADMIN_TOKEN_PATTERN.test(token)) throw new Misconfigured(`PETSTORE_ADMIN_TOKEN must be ${ADMIN_TOKEN_RULE}`);
  const fake = env.PETSTORE_FAKE;
  if (!isNamespace(fake)) {
    throw new Misconfigured(
      `PETSTORE_ADMIN_TOKEN is set but no Durable Object namespace is bound as PETSTORE_FAKE: export the PetStoreFake petStoreWorker returns (export const { PetStoreFake } = petstore) and bind it in wrangler.toml; ${HELP}`,
    );
  }
  return sandboxRouter(fake, token);
}

/** The Pet Store over the D1 database and the limit objects, its tables made before its first request. */
function d1Backend(env: PetStoreEnv, options: PetStoreOptions): Serve {
  const { PETSTORE_DB: db, PETSTORE_LIMITS: limits } = env;
  if (typeof db?.prepare !== 'function')
    throw new Misconfigured(`no D1 database is bound as PETSTORE_DB: add [[d1_databases]] binding = "PETSTORE_DB" to wrangler.toml; ${HELP}`);
  if (!isNamespace(limits)) {
    throw new Misconfigured(
      `no Durable Object namespace is bound as PETSTORE_LIMITS: export PetStoreLimits from the Worker and bind it in wrangler.toml; ${HELP}`,
    );
  }
  // Built as createPetStore builds a store, but without the node:http listener, which a Worker never calls.
  const config = resolveOptions({
    ...options,
    apiKeys: apiKeysOf(env.PETSTORE_API_KEYS),
    storage: d1PetStorage(db),
    limitStore: durableObjectLimitStore(limits),
    // Cloudflare sets CF-Connecting-IP to the address the request came from, replacing any a client sent.
    clientAddress: (request) => request.headers.get('cf-connecting-ip') ?? undefined,
  });
  const petstore = toPetStore(compose({ config }));
  // Once per Worker instance; a failed migration is tried again by the next request. Once done,
  // nothing is awaited: a request should not wait on a promise another request's I/O settles.
  let migrating: Promise<void> | undefined;
  let migrated = false;
  const migrate = () =>
    (migrating ??= migrateD1(db).then(
      () => void (migrated = true),
      (error: unknown) => ((migrating = undefined), Promise.reject(error)),
    ));
  return async (request, mountPath) => {
    if (!migrated) await migrate();
    return petstore.fetch(request, { mountPath });
  };
}

/** What serves requests with these bindings; a Misconfigured error names what is missing. */
export function serveWith(env: PetStoreEnv, options: PetStoreOptions): Serve {
  if (typeof env !== 'object' || env === null) throw new Misconfigured(`the Worker passed no env: call petstore.fetch(request, env); ${HELP}`);
  const token = env.PETSTORE_ADMIN_TOKEN;
  return typeof token === 'string' && token !== '' ? fakeBackend(env, token) : d1Backend(env, options);
}
