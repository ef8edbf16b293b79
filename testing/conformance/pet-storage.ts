/** The PetStorage conformance suite: every pet storage (memory, IndexedDB, Redis, yours) must pass it. */
import { describe, expect, it } from 'vitest';
import type { NewPet, PetStatus, PetStorage } from '../../src/index.ts';

/**
 * Makes a fresh, empty storage for one test.
 *
 * @example
 * const makeStorage: MakePetStorage = () => memoryPetStorage();
 */
export type MakePetStorage = () => PetStorage | Promise<PetStorage>;

const pet = (name: string, status?: PetStatus): NewPet => (status ? { name, categoryId: 1, status } : { name, categoryId: 1 });
const ids = (pets: readonly { id: number }[]) => pets.map((p) => p.id);

/**
 * Defines a vitest suite proving `makeStorage`'s stores keep the {@link PetStorage} contract.
 *
 * @example
 * import { describePetStorageConformance } from 'petstore-service/storage-conformance';
 * describePetStorageConformance('my SQL storage', () => sqlPetStorage(freshDatabase()));
 */
export function describePetStorageConformance(name: string, makeStorage: MakePetStorage): void {
  describe(`PetStorage conformance: ${name}`, () => {
    it('assigns ids 1, 2, 3 … in creation order and returns what it stored', async () => {
      const storage = await makeStorage();
      expect(await storage.create(pet('a', 'sold'))).toEqual({ id: 1, name: 'a', categoryId: 1, status: 'sold' });
      expect(await storage.create(pet('b'))).toEqual({ id: 2, name: 'b', categoryId: 1 });
      expect(await storage.get(2)).toEqual({ id: 2, name: 'b', categoryId: 1 });
      expect(await storage.get(3)).toBeUndefined();
    });

    it('gives 1,000 concurrent creates the ids 1..1000, each once', async () => {
      const storage = await makeStorage();
      const created = await Promise.all(Array.from({ length: 1000 }, (_, i) => storage.create(pet(`p${i}`))));
      expect(ids(created).sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    }, 60_000);

    it('lists in ascending id order after a cursor, up to the limit', async () => {
      const storage = await makeStorage();
      for (let i = 0; i < 10; i++) await storage.create(pet(`p${i}`, i % 2 ? 'sold' : 'available'));
      expect(ids(await storage.list({ after: 0, limit: 3 }))).toEqual([1, 2, 3]);
      expect(ids(await storage.list({ after: 3, limit: 100 }))).toEqual([4, 5, 6, 7, 8, 9, 10]);
      expect(ids(await storage.list({ after: 10, limit: 5 }))).toEqual([]);
      expect(ids(await storage.list({ status: 'sold', after: 0, limit: 2 }))).toEqual([2, 4]);
      expect(ids(await storage.list({ status: 'sold', after: 4, limit: 100 }))).toEqual([6, 8, 10]);
      expect(await storage.list({ after: 0, limit: 1 })).toEqual([{ id: 1, name: 'p0', categoryId: 1, status: 'available' }]);
    });

    it('never matches a pet stored without status to a status filter', async () => {
      const storage = await makeStorage();
      await storage.create(pet('none'));
      for (const status of ['available', 'pending', 'sold'] as const) {
        expect(await storage.list({ status, after: 0, limit: 10 })).toEqual([]);
      }
      expect(ids(await storage.list({ after: 0, limit: 10 }))).toEqual([1]);
    });

    it('keeps cursors stable while pets are created between pages', async () => {
      const storage = await makeStorage();
      for (let i = 0; i < 4; i++) await storage.create(pet(`p${i}`, 'pending'));
      const first = await storage.list({ status: 'pending', after: 0, limit: 2 });
      await Promise.all([storage.create(pet('late', 'pending')), storage.create(pet('other', 'sold'))]);
      const second = await storage.list({ status: 'pending', after: first.at(-1)!.id, limit: 10 });
      expect([...ids(first), ...ids(second)]).toEqual([1, 2, 3, 4, 5]);
    });

    it('creates once per idempotency key, even when the calls race', async () => {
      const storage = await makeStorage();
      const results = await Promise.all(Array.from({ length: 20 }, () => storage.createOnce('k1', 'f1', pet('once'), 2_000, 1_000)));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.record.pet.id))).toEqual(new Set([1]));
      expect(results.every((r) => r.record.fingerprint === 'f1' && r.record.expiresAt === 2_000)).toBe(true);
      expect(ids(await storage.list({ after: 0, limit: 10 }))).toEqual([1]);
    });

    it('forgets an idempotency key once it has expired, by the time it is given', async () => {
      const storage = await makeStorage();
      await storage.createOnce('k2', 'f', pet('first'), 2_000, 1_000);
      expect((await storage.createOnce('k2', 'f', pet('again'), 3_000, 1_999)).created).toBe(false);
      const later = await storage.createOnce('k2', 'f', pet('again'), 4_000, 2_000);
      expect(later.created).toBe(true);
      expect(later.record.pet.id).toBe(2);
    });

    it('never reuses an id', async () => {
      const storage = await makeStorage();
      const a = await storage.create(pet('a'));
      await storage.createOnce('k3', 'f', pet('b'), 2_000, 1_000);
      const c = await storage.create(pet('c'));
      expect([a.id, c.id]).toEqual([1, 3]);
    });

    it('keeps and reads back a name longer than POST /pets now takes, as pets stored before that limit have', async () => {
      const storage = await makeStorage();
      // 5,000 code points, some of them two UTF-16 units: a store must not cut, count or refuse what it was given.
      const name = `${'n'.repeat(4_000)}${'\u{1F415}'.repeat(1_000)}`;
      const stored = await storage.create({ name, categoryId: 1, status: 'pending' });
      expect(stored.name).toBe(name);
      expect(await storage.get(stored.id)).toEqual(stored);
      expect(await storage.list({ after: 0, limit: 10, status: 'pending' })).toEqual([stored]);
    });

    it('holds exactly the pets it stored, as a full page and its count (when it has one) tell: not a replayed create, not a racing one twice', async () => {
      const storage = await makeStorage();
      if (storage.count) expect(await storage.count()).toBe(0);
      await storage.create(pet('a', 'sold'));
      await storage.createOnce('k4', 'f', pet('b'), 2_000, 1_000);
      await storage.createOnce('k4', 'f', pet('b'), 2_000, 1_500);
      await Promise.all(Array.from({ length: 20 }, (_, i) => storage.create(pet(`p${i}`, i % 2 ? 'pending' : undefined))));
      expect(await storage.list({ after: 0, limit: 100 })).toHaveLength(22);
      if (storage.count) expect(await storage.count()).toBe(22);
    });

    it('names the database it can be down with: a storage with a ping names it, for people and by OpenTelemetry system, and its ping answers while it is up', async () => {
      const storage = await makeStorage();
      // /readyz names what does not answer: a store that can be down says what it is.
      if (!storage.database) return expect(storage.ping).toBeUndefined();
      expect(storage.database).toEqual({ system: expect.stringMatching(/^[a-z][a-z0-9_.]*$/), name: expect.stringMatching(/\S/) });
      if (storage.ping) await expect(storage.ping()).resolves.toBeUndefined();
    });
  });
}
