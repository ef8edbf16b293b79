/** petstore-service: the Pet Store API as one runtime-neutral fetch handler. */
export { createPetStore } from './compose.ts';
export type { PetStore, PetStoreFetch, PetStoreHandler } from './handler.ts';
export type { PetStoreContext } from '../src/edge/context.ts';
export type { Exchange, PetStoreOptions } from '../src/options.ts';
export { ApiError, type ApiErrorOptions, type ErrorBody, type ErrorCode } from '../src/response/api-error.ts';
export type { NewPet, Pet, PetStatus } from '../src/storage/pet.ts';
export type { PetStorage } from '../src/storage/pet-storage.ts';
export { memoryPetStorage } from '../src/storage/memory-pet-storage.ts';
export type { LimitStore } from '../src/limits/limit-store.ts';
export { memoryLimitStore } from '../src/limits/memory-limit-store.ts';
export type { Plan, Quota } from '../src/limits/plans.ts';
export { parseApiKeys } from '../src/auth/api-keys.ts';
