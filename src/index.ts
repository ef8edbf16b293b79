/** petstore-service: the Pet Store API as one runtime-neutral fetch handler. */
export { createPetStore, type PetStore, type PetStoreContext } from './pet-store.ts';
export type {
  BunServerLike,
  DenoServeHandlerInfoLike,
  NodeHttpBindingsLike,
  NodeRequestLike,
  NodeResponseLike,
  PetStoreFetch,
  PetStoreServerContext,
} from './handler.ts';
export type { PetStoreOptions } from './options.ts';
export type { ListenOptions, ListeningPetStore } from './listening.ts';
export { ApiError } from './errors.ts';
export { memoryPetStorage, type MemoryPetStorageOptions } from './storage/memory.ts';
export { allPets, seedPets } from './storage/bulk.ts';
export type { CreateOnceResult, IdempotencyRecord, PetListQuery, PetStorage } from './storage/types.ts';
export {
  memoryRateLimitStore,
  type MemoryRateLimitStore,
  type MemoryRateLimitStoreOptions,
} from './rate-limit/memory-store.ts';
export type { QuotaWindow, RateLimitStore, Subject, TakeResult } from './rate-limit/store.ts';
export { parseApiKeys, PLAN_QUOTAS, type CustomPlan, type Plan, type PlanName } from './plans.ts';
export {
  ERROR_CODES,
  ErrorBodySchema,
  NewPetSchema,
  PetSchema,
  PetStatusSchema,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
  type NewPet,
  type Pet,
  type PetStatus,
} from './schemas.ts';
