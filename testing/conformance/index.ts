/** petstore-service/storage-conformance: the vitest suites that prove a PetStorage or LimitStore (the contracts themselves come from `petstore-service/storage`). */
export { describePetStorageConformance, type MakePetStorage } from './pet-storage.ts';
export { describeLimitStoreConformance, type LimitStoreConformanceSettings, type MakeLimitStore } from './limit-store.ts';
