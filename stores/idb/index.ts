/** petstore-service/idb: a PetStorage in IndexedDB via idb-keyval, shared by every tab and the service worker. */
import { clear, createStore, get, promisifyRequest, type UseStore } from 'idb-keyval';
import type { CreateOnceResult, IdempotencyRecord, NewPet, Pet, PetListQuery, PetStorage } from '../../src/index.ts';

/** Options of {@link idbPetStorage}. */
export interface IdbPetStorageOptions {
  /** IndexedDB database name. Default `petstore`. */
  readonly dbName?: string;
  /** Object store name inside it. Default `pets`. */
  readonly storeName?: string;
}

/** A {@link PetStorage} in IndexedDB that can also be emptied (for demos and tests). */
export interface IdbPetStorage extends PetStorage {
  /** Deletes every pet and restarts ids at 1. */
  clear(): Promise<void>;
}

// One object store, three kinds of keys. Array keys sort element by element, so a key range
// over ['status', s, id] reads a filtered page straight off the store: O(limit), no full scan.
const LAST_ID: IDBValidKey = ['meta', 'lastId'];
const petKey = (id: number): IDBValidKey => ['pet', id];
const statusKey = (status: string, id: number): IDBValidKey => ['status', status, id];
const idempotencyKey = (key: string): IDBValidKey => ['idempotency', key];

/** Allocates the next id and writes the pet, inside the caller's read-write transaction. */
async function insert(objects: IDBObjectStore, newPet: NewPet): Promise<Pet> {
  const id = ((await promisifyRequest<number | undefined>(objects.get(LAST_ID))) ?? 0) + 1;
  const pet: Pet = { id, ...newPet };
  objects.put(id, LAST_ID);
  objects.put(pet, petKey(id));
  // The status index holds a copy of the pet, so a filtered page needs no second lookup.
  if (pet.status) objects.put(pet, statusKey(pet.status, id));
  return pet;
}

/**
 * A {@link PetStorage} in IndexedDB, through idb-keyval. Pets survive reloads and service-worker
 * restarts. `create` allocates the id and writes the pet in one read-write transaction, which
 * IndexedDB runs one at a time per store, so ids stay unique and increasing across tabs.
 *
 * @example
 * const petstore = createPetStore({ storage: idbPetStorage({ dbName: 'my-app-pets' }) });
 */
export function idbPetStorage(options: IdbPetStorageOptions = {}): IdbPetStorage {
  const store: UseStore = createStore(options.dbName ?? 'petstore', options.storeName ?? 'pets');

  return {
    create: (newPet: NewPet) =>
      store('readwrite', async (objects) => {
        const pet = await insert(objects, newPet);
        await promisifyRequest(objects.transaction);
        return pet;
      }),
    createOnce: (key, fingerprint, newPet, expiresAt, now) =>
      store('readwrite', async (objects): Promise<CreateOnceResult> => {
        const found = await promisifyRequest<IdempotencyRecord | undefined>(objects.get(idempotencyKey(key)));
        if (found && found.expiresAt > now) return { record: found, created: false };
        const record: IdempotencyRecord = { fingerprint, pet: await insert(objects, newPet), expiresAt };
        objects.put(record, idempotencyKey(key));
        await promisifyRequest(objects.transaction);
        return { record, created: true };
      }),
    get: (id: number) => get<Pet>(petKey(id), store),
    list: ({ status, after, limit }: PetListQuery) => {
      const [from, to] = status === undefined ? [petKey(after), petKey(Infinity)] : [statusKey(status, after), statusKey(status, Infinity)];
      return store('readonly', (objects) => promisifyRequest<Pet[]>(objects.getAll(IDBKeyRange.bound(from, to, true, true), limit)));
    },
    clear: () => clear(store),
  };
}
