/** petstore-service/storage-conformance: vitest suites a storage or rate-limit store must pass. */
export { describePetStorageConformance, type MakePetStorage } from './pet-storage.ts';
export {
  describeRateLimitStoreConformance,
  type MakeRateLimitStore,
  type RateLimitStoreConformanceSettings,
} from './rate-limit-store.ts';
