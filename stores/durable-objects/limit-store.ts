/** LimitStore over Cloudflare Durable Objects: each subject's calls go to its own object, which counts them one at a time. */
import type { LimitStore, Subject, TakeResult } from '../../src/index.ts';
import type { StepCall } from './limits-object.ts';

/** A Durable Object stub, as `namespace.get(id)` returns it. */
interface DurableObjectStubLike {
  fetch(input: string | Request, init?: { method: string; body: string }): Promise<Response>;
}

/**
 * A Durable Object namespace binding (`env.PETSTORE_LIMITS`), or Miniflare's
 * `getDurableObjectNamespace()` in Node.
 *
 * @example
 * const namespace: DurableObjectNamespaceLike = env.PETSTORE_LIMITS;
 */
export interface DurableObjectNamespaceLike<Id = unknown> {
  idFromName(name: string): Id;
  get(id: Id): DurableObjectStubLike;
}

/**
 * Settings of {@link durableObjectLimitStore}.
 *
 * @example
 * const options: DurableObjectLimitStoreOptions = { prefix: 'staging:' };
 */
export interface DurableObjectLimitStoreOptions {
  /** Put before every subject's object name, so several APIs can share one namespace. Default `''`. */
  readonly prefix?: string;
}

/**
 * A {@link LimitStore} whose state lives in {@link PetStoreLimits} Durable Objects, one per
 * subject: exact under any concurrency, across all of a Worker's instances and restarts. Each
 * check is one call to the subject's object (a few milliseconds when it is near, more the first
 * time it wakes); subjects never wait on one another.
 *
 * @example
 * const petstore = createPetStore({ storage: d1PetStorage(env.PETSTORE_DB), limitStore: durableObjectLimitStore(env.PETSTORE_LIMITS) });
 */
export function durableObjectLimitStore<Id>(namespace: DurableObjectNamespaceLike<Id>, { prefix = '' }: DurableObjectLimitStoreOptions = {}): LimitStore {
  if (typeof namespace?.idFromName !== 'function' || typeof namespace.get !== 'function') {
    throw new TypeError('durableObjectLimitStore: namespace must be a Durable Object namespace binding, such as env.PETSTORE_LIMITS');
  }
  if (typeof prefix !== 'string') throw new TypeError('durableObjectLimitStore: prefix must be a string');
  async function call<T>(subject: Subject, step: StepCall): Promise<T> {
    const stub = namespace.get(namespace.idFromName(prefix + subject));
    const response = await stub.fetch('https://petstore-limits.invalid/', { method: 'POST', body: JSON.stringify(step) });
    if (!response.ok) throw new Error(`durableObjectLimitStore: the limits object answered ${response.status}`);
    return ((await response.json()) as { answer: T }).answer;
  }
  return {
    take: (subject, windows, now) => call<TakeResult>(subject, { step: 'take', windows, now }),
    reject: (subject, window, now) => call<number>(subject, { step: 'reject', window, now }),
    ban: async (subject, until, now) => void (await call<null>(subject, { step: 'ban', until, now })),
  };
}
