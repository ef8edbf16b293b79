/** The fake backend's front door without the admin API: everything controls/index.ts offers but `controlLayers`, so the service worker reaches nothing of admin/. */
export { manualClock, takeoverClock, type ManualClock } from './clock/clock.ts';
export type { Controls } from './controls.ts';
export type { DelayRange, FaultInjector, FaultRule, Faults, PendingFault } from './faults/faults.ts';
export { matching, verifyRequests, type RecordedExchange, type RequestMatcher, type Verification } from './journal/journal.ts';
export { harOf, type Har, type HarEntry } from './journal/journal-har.ts';
export { exchangesMatching, type JournalFilter } from './journal/journal-query.ts';
export type { ControlBounds, ControlLayers } from './layers.ts';
export { generatedPets, MAX_GENERATED_PETS, type GenerateOptions } from './pets/generated-pets.ts';
export { MAX_SEED } from './pets/random.ts';
export { petsToSeed, type SeedInput } from './pets/seed-schemas.ts';
export { newSandboxSchemaFor } from './sandboxes/sandbox-schemas.ts';
export { selectorOf } from './sandboxes/sandbox-selector.ts';
export type { Sandboxes } from './sandboxes/sandboxes.ts';
export { redactSecrets, type Redactor } from './secrets/redaction.ts';
export { sandboxIdOf, type SandboxKeys } from './secrets/sandbox-keys.ts';
export { workerLayers } from './worker-layers.ts';
