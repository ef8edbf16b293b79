/** petstore-service/storage-conformance: vitest suites a storage or rate-limit store must pass. */
export { describePetStorageConformance, type MakePetStorage } from './pet-storage.ts';
export { describeRateLimitStoreConformance, type MakeRateLimitStore } from './rate-limit-store.ts';
