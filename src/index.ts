/** petstore-service: the Pet Store API as one runtime-neutral fetch handler. */
export { createPetStore } from './pet-store.ts';
export type { PetStore, PetStoreFetch, PetStoreHandler } from './handler.ts';
export type { PetStoreContext } from './edge/context.ts';
export type { Exchange, PetStoreOptions } from './options.ts';
export { ApiError, type ApiErrorOptions, type ErrorBody, type ErrorCode } from './response/api-error.ts';
export type { NewPet, Pet, PetStatus } from './storage/pet.ts';
export type { PetStorage } from './storage/pet-storage.ts';
export { memoryPetStorage } from './storage/memory-pet-storage.ts';
export type { LimitStore } from './limits/limit-store.ts';
export { memoryLimitStore } from './limits/memory-limit-store.ts';
export type { Plan, Quota } from './limits/plans.ts';
export { parseApiKeys } from './auth/api-keys.ts';
