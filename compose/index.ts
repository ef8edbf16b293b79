/** petstore-service: the Pet Store API as one runtime-neutral fetch handler. Its whole public surface (at most 20 names) is on this screen. */
export { createPetStore } from './create-pet-store.ts';
export type { PetStore, PetStoreFetch, PetStoreHandler } from './handler.ts';
export {
  ApiError,
  parseApiKeys,
  type ApiErrorOptions,
  type ErrorBody,
  type ErrorCode,
  type Exchange,
  type LimitStore,
  type NewPet,
  type Pet,
  type PetStatus,
  type PetStorage,
  type PetStoreContext,
  type PetStoreOptions,
  PetStoreWarning,
  type Plan,
  type Quota,
} from '../src/index.ts';
