/** The built-in in-memory stores pass the same conformance suites a third-party store must. */
import { memoryPetStorage, memoryLimitStore } from '../../stores/memory/index.ts';
import { describePetStorageConformance, describeLimitStoreConformance } from '../../testing/conformance/index.ts';

describePetStorageConformance('memoryPetStorage', () => memoryPetStorage());
describeLimitStoreConformance('memoryLimitStore', () => memoryLimitStore());
// A bound far below the flood (the 100,100 addresses), so the flood case really pushes addresses out.
describeLimitStoreConformance('memoryLimitStore({ maxAddresses: 100 })', () => memoryLimitStore({ maxAddresses: 100 }), {
  floodAddresses: 100_100,
});
