/** The runtime-neutral half of petstore-service/testing: test store, manual clock, faults. */
export { createTestPetStore, TEST_KEYS, type RecordedExchange, type TestPetStore, type TestPetStoreOptions } from './test-pet-store.ts';
export { manualClock, type ManualClock } from './clock.ts';
export { createFaults, withFaults, type FaultInjector, type FaultRule, type Faults } from './faults.ts';
