/** The built-in in-memory stores pass the same conformance suites a third-party store must. */
import { memoryPetStorage, memoryRateLimitStore } from '../../src/index.ts';
import { describePetStorageConformance, describeRateLimitStoreConformance } from '../../src/conformance/index.ts';

describePetStorageConformance('memoryPetStorage', () => memoryPetStorage());
describeRateLimitStoreConformance('memoryRateLimitStore', () => memoryRateLimitStore());
// A bound far below the flood (the 100,100 addresses), so the flood case really pushes addresses out.
describeRateLimitStoreConformance('memoryRateLimitStore({ maxAddresses: 100 })', () => memoryRateLimitStore({ maxAddresses: 100 }), {
  floodAddresses: 100_100,
});
