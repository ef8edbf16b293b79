/** The Durable Object class that serves the Pet Store as a fake backend, admin API on, made from one petStoreWorker's options: one instance for the main world, one per sandbox, each from memory. */
import { compose, toPetStore } from '../../compose/compose.ts';
import type { PetStore } from '../../compose/handler.ts';
import { adminLayers, newSandboxSchemaFor, type Sandboxes } from '../../controls/index.ts';
import { parseApiKeys, parseInput, resolveOptions, type PetStoreOptions } from '../../src/index.ts';
import { readMessage, type SandboxMessage } from './sandbox-messages.ts';
import { opensSandbox } from './sandbox-router.ts';

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
   * petStoreWorker sends the main world's requests and the admin API's to one instance of this
   * Durable Object, and each sandbox's (its keys, `/__admin/sandboxes/{id}/…`) to an instance of
   * its own (sandbox-router.ts). Every instance serves the API and the admin API under `/__admin`
   * (reset, seed, the clock, faults, the journal) from memory; a sandbox's holds that sandbox
   * only, from the keys and pets the Worker tells it. One instance in the world sees every request
   * of its world, so a reset, a seeded pet or a moved clock is what the next request sees,
   * whichever Worker instance it reaches. Pets and quotas live as long as the object stays awake
   * (Cloudflare evicts an idle one after a minute or two): a fake backend for tests and demos, not
   * D1. Bind it as `PETSTORE_FAKE` (docs/workers.md).
   */
  return class PetStoreFake {
    readonly #env: FakeBackendEnv;
    #world: { readonly petstore: PetStore; readonly sandboxes: Sandboxes } | undefined;

    constructor(_state: unknown, env: FakeBackendEnv) {
      this.#env = env;
    }

    /** Answers one request the Worker forwarded, as the Worker would have, or a message from the Worker. */
    async fetch(request: Request): Promise<Response> {
      // Built as createPetStore builds a store, but without the node:http listener, which a Worker never calls.
      if (!this.#world) {
        const composed = compose({
          config: resolveOptions({
            // A fake backend answers bans at once, as the test kit does; here a held answer would also bill a Durable Object's wall time.
            banHoldMs: 0,
            ...options,
            apiKeys: parseApiKeys(this.#env.PETSTORE_API_KEYS ?? ''),
            admin: { token: this.#env.PETSTORE_ADMIN_TOKEN ?? '' },
            // The Worker forwards the request as it came, Cloudflare's CF-Connecting-IP included.
            clientAddress: (incoming) => incoming.headers.get('cf-connecting-ip') ?? undefined,
          }),
          // The registry here, each sandbox's world in its own object (sandbox-router.ts): the main object counts none of their pets.
          layers: adminLayers('elsewhere'),
        });
        this.#world = { petstore: toPetStore(composed), sandboxes: composed.sandboxes! };
      }
      const { petstore, sandboxes } = this.#world;
      let message: SandboxMessage | undefined;
      try {
        message = await readMessage(request, this.#env.PETSTORE_ADMIN_TOKEN ?? '');
      } catch {
        return new Response(null, { status: 403 });
      }
      if (message) {
        const id = await obey(sandboxes, message);
        return id === undefined ? new Response(null, { status: 404 }) : new Response(id);
      }
      const response = await petstore.fetch(request, { mountPath });
      if (response.status === 201 && opensSandbox(request, mountPath)) {
        // The sandbox lives in its own object, seeded there by the Worker: this main object keeps its
        // id, keys and idle time, and need not keep its pets too.
        const { id } = (await response.clone().json()) as { id: string };
        sandboxes.get(id)?.controls.reset();
      }
      return response;
    }
  };
}

/** Does what a message says to this object's sandboxes; the id of the sandbox it names, `undefined` when that one is not here. */
async function obey(sandboxes: Sandboxes, message: SandboxMessage): Promise<string | undefined> {
  // At most 1,000 open, and a Worker instance asks about a selector once in 10 s: a scan, with no index kept beside the registry's.
  if (message.op === 'find') {
    const found = sandboxes.list().find((sandbox) => sandbox.selector === message.selector);
    return found && sandboxes.get(found.id)?.id;
  }
  // A key is checked before its sandbox is marked used: a guessed secret keeps none alive.
  if (message.op === 'touch') return (message.key === undefined ? sandboxes.get(message.id) : sandboxes.byKey(message.key))?.id;
  if (message.op === 'wipe') return sandboxes.delete(message.id) ? message.id : undefined;
  const sandbox = sandboxes.open({ id: message.id, keys: message.keys, selector: message.selector });
  if (!sandbox) return undefined;
  // The main object has checked the pets already; read again here, they are typed.
  const { seed } = parseInput(newSandboxSchemaFor({ seed: message.seed }), { seed: message.seed }, 'body');
  if (seed !== undefined) await sandbox.controls.seed(seed);
  return sandbox.id;
}
