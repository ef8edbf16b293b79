/** A PetStorage wrapper that fails on purpose: a given share of calls, of chosen operations, reject. */
import type { PetStorage } from '../../compose/index.ts';

/** Options of {@link faultyStorage}. */
export interface FaultOptions {
  /** Share of calls that fail, 0..1. */
  readonly rate: number;
  /** Which operations may fail. Default: all. */
  readonly operations?: readonly (keyof PetStorage)[];
  /** Source of randomness, so a seeded run repeats. Default `Math.random`. */
  readonly random?: () => number;
}

/** The wrapped storage and how many faults it has injected so far. */
export function faultyStorage(inner: PetStorage, { rate, operations = ['create', 'createOnce', 'get', 'list'], random = Math.random }: FaultOptions) {
  let injected = 0;
  const fails = (operation: keyof PetStorage) => operations.includes(operation) && random() < rate;
  const fault = (operation: string) => {
    injected++;
    return Promise.reject(new Error(`injected ${operation} fault: /var/lib/petstore is on fire`));
  };
  const storage: PetStorage = {
    create: (pet) => (fails('create') ? fault('create') : inner.create(pet)),
    createOnce: (...args) => (fails('createOnce') ? fault('createOnce') : inner.createOnce(...args)),
    get: (id) => (fails('get') ? fault('get') : inner.get(id)),
    list: (query) => (fails('list') ? fault('list') : inner.list(query)),
  };
  return { storage, injected: () => injected };
}

/** A small seeded PRNG (mulberry32), so fault patterns repeat with the fuzz seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
