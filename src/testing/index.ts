/** The runtime-neutral half of petstore-service/testing: the test store, its manual clock, its faults and its journal. */
export { createTestPetStore, TEST_KEYS, type TestPetStore, type TestPetStoreOptions } from './test-pet-store.ts';
export { manualClock, type ManualClock } from '../control/clock.ts';
export type { FaultRule, Faults, PendingFault } from '../control/faults.ts';
export { matching, type RecordedExchange, type RequestMatcher, type Verification } from '../control/journal.ts';
