/**
 * The API core, as the rest of the package sees it: the one entry compose/, controls/, runtimes/,
 * stores/, testing/ and cli/ import src/ through. Not published as it is: compose/index.ts picks
 * the public names from here.
 */
export { SERVER_METHODS, createAnswer, createHandle, handleOf } from './api.ts';
export { connectionReset, endlessAnswer, isConnectionReset, isEndless, type Answer, type Handle, type Injected } from './handle.ts';
export { PET_STORE_OPTION_NAMES, isOrigin, resolveOptions, type Exchange, type PetStoreOptions, type ResolvedOptions } from './options.ts';
export { ADMIN_BOUNDS, ADMIN_TOKEN_PATTERN, ADMIN_TOKEN_RULE, adminBound, type AdminOptions, type ResolvedAdmin } from './admin-options.ts';
export { assertKnownOptions, nearestName } from './option-names.ts';

// The seam a runtime fills in, and the edge's checks a runtime may make itself.
export { IN_PROCESS, NO_HOST, bodyReadByHost, type Host, type WireTarget } from './edge/host.ts';
export type { PetStoreContext } from './edge/context.ts';
export type { Answered, ObservedRequest, RequestNotes, RequestObservation, StoreTelemetry, Telemetry } from './edge/telemetry.ts';
export { badRequest, pathBelowMount, requestTarget } from './edge/target.ts';
export { pathAndQuery } from './edge/path-and-query.ts';
export { PROXY_HEADERS, createCallerAddress, type AddressFinder, type ProxyHeader } from './edge/caller-address.ts';
export { corsHeaders } from './cors/cors.ts';
export type { ApiRequest, RequestView } from './operations/request.ts';

export { apiKeyEntries, parseApiKeys } from './auth/api-keys.ts';
export { bearerToken, createAuthenticator } from './auth/auth.ts';
export { createRateLimiter, quotaWindows, refusalHeaders, type LimitRuling } from './limits/limiter.ts';
export { PLAN_QUOTAS, planQuota, type Plan, type Quota } from './limits/plans.ts';
export type { LimitStore, QuotaWindow, Subject, TakeResult } from './limits/limit-store.ts';
export { memoryLimitStore } from './limits/memory-limit-store.ts';
export { anonymousSubject } from './limits/address.ts';
export { createStrikes, type Strikes } from './limits/strikes.ts';
export { allowedMethods, handlerFor, matchRoute } from './route/route.ts';
export { joinedChunks, readJson } from './operations/body.ts';
export { parseInput } from './operations/validation.ts';
export { ref, schemaConverter } from './operations/json-schema.ts';
export { headerObject, jsonContent, OPENAPI_CONTACT, type OpenApiObject, pattern, withBodyRules, withoutBodies } from './operations/openapi-parts.ts';

export { InvalidSeedError, allPets, seedPets } from './storage/bulk.ts';
export { NewPetSchema, PetSchema, PetStatusSchema, type NewPet, type Pet, type PetStatus } from './storage/pet.ts';
export type { CreateOnceResult, IdempotencyRecord, PetListQuery, PetStorage } from './storage/pet-storage.ts';
export type { StoreDatabase } from './storage/database.ts';
export { READY_TIMEOUT_MS } from './storage/readiness.ts';
export { liveRecord, memoryPetStorage } from './storage/memory-pet-storage.ts';
export { firstAfter, petIndex } from './storage/pet-index.ts';

export { ApiError, ERROR_CODES, ErrorBodySchema, type ApiErrorOptions, type ErrorBody, type ErrorCode } from './response/api-error.ts';
export { errorReply, render, utf8Length, wireReply, withHeaders, type Reply } from './response/reply.ts';
export { reasonPhrase } from './response/reason.ts';
export { DOCS_URL, PetStoreWarning, WARNING_CODES, createWarnings, type WarningCode, type Warnings } from './response/warning.ts';
