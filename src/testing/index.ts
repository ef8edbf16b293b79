/** The runtime-neutral half of petstore-service/testing: the test store, its manual clock, and its faults' types. */
export { createTestPetStore, TEST_KEYS, type RecordedExchange, type TestPetStore, type TestPetStoreOptions } from './test-pet-store.ts';
export { manualClock, type ManualClock } from './clock.ts';
export type { FaultRule, Faults } from '../faults.ts';
