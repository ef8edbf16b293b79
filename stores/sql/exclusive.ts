/** Pets and limits in a database one process alone writes (the command's `--data`): read from memory, written through in group commits. */
import type { LimitStore, PetStorage } from '../../src/index.ts';
import { exclusiveLimitStore, type QueryClient } from './exclusive-limits.ts';
import { exclusivePetStorage } from './exclusive-pets.ts';
import { createGroupCommit, type GroupCommit } from './group-commit.ts';

/**
 * What {@link openExclusiveStores} gives: the two stores, and `drain` to await the writes still in
 * flight before closing the database.
 *
 * @example
 * const { storage, limitStore, drain } = await openExclusiveStores(db);
 */
export interface ExclusiveStores {
  readonly storage: PetStorage;
  readonly limitStore: LimitStore;
  drain(): Promise<void>;
}

/**
 * The SQL stores for a migrated database that this process alone writes, as PGlite in a `--data`
 * directory the command has locked. Never for a database other processes write (PostgreSQL shared
 * by instances): each decision is made on what this process holds in memory. In exchange, reads
 * cost no database round trip, and the writes of every request that arrived while the last
 * transaction ran are committed together in one, each caller resumed after the commit holding
 * its change: an answered create is stored and an answered request counted, as with
 * `sqlPetStorage` and `sqlLimitStore`.
 *
 * Measured with `node bench/data-mixed.mjs` (the command on `--data`, 60 % list, 25 % create, 10 %
 * wrong key, 5 % get, 20 connections): see BENCHMARKS.md.
 *
 * @example
 * const db = await PGlite.create('./petstore-data');
 * await migrate(pgliteClient(db));
 * const { storage, limitStore } = await openExclusiveStores(db);
 */
export async function openExclusiveStores(client: QueryClient, now: number = Date.now()): Promise<ExclusiveStores> {
  let group: GroupCommit | undefined;
  const groupOf = () => group!;
  const limits = exclusiveLimitStore(client, groupOf);
  const pets = await exclusivePetStorage(client, groupOf, now);
  group = createGroupCommit(client, [limits.source, pets.source]);
  const flushing = group;
  return { storage: pets.storage, limitStore: limits.limitStore, drain: () => flushing.drain() };
}
