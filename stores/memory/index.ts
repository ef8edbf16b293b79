/** petstore-service/storage: what a store implements (PetStorage, LimitStore and their types), and the in-memory ones every store starts with. */
export {
  memoryLimitStore,
  memoryPetStorage,
  type CreateOnceResult,
  type IdempotencyRecord,
  type LimitStore,
  type NewPet,
  type Pet,
  type PetListQuery,
  type PetStatus,
  type PetStorage,
  type QuotaWindow,
  type StoreDatabase,
  type Subject,
  type TakeResult,
} from '../../src/index.ts';
