/** petstore-service/storage-conformance: the contracts a PetStorage or LimitStore fulfils, and the vitest suites that prove it. */
export type { CreateOnceResult, IdempotencyRecord, PetListQuery, PetStorage } from '../../src/storage/pet-storage.ts';
export type { LimitStore, QuotaWindow, Subject, TakeResult } from '../../src/limits/limit-store.ts';
export { describePetStorageConformance, type MakePetStorage } from './pet-storage.ts';
export { describeLimitStoreConformance, type LimitStoreConformanceSettings, type MakeLimitStore } from './limit-store.ts';
