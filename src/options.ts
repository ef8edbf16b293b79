/** Options of createPetStore, checked eagerly so a typo fails at startup, not on a request. */
import * as v from 'valibot';
import { assertPlan, API_KEY_PATTERN, type Plan } from './plans.ts';
import { PetStatusSchema, type PetStatus } from './schemas.ts';
import { assertIpv6Subnet } from './rate-limit/address.ts';
import { memoryRateLimitStore } from './rate-limit/memory-store.ts';
import type { RateLimitStore } from './rate-limit/store.ts';
import { memoryPetStorage } from './storage/memory.ts';
import type { PetStorage } from './storage/types.ts';

/**
 * Per-request values a host may pass as the handler's server context (`petstore.fetch(request,
 * context)`). Under node:http, Express, Deno.serve and Bun.serve they are found on their own.
 */
export interface PetStoreContext {
  /** The client's network address, for limiting callers without a valid key. */
  readonly clientAddress?: string;
  /**
   * The path prefix the host mounted the API under (`/api`), whether or not it removed it from
   * the request's path: URLs the API writes carry it. Express's `req.baseUrl` is read on its own.
   */
  readonly mountPath?: string;
  /**
   * The request body, when the host's body parser already read it: a parsed JSON value, or the
   * raw text or bytes. It is checked exactly like a body read from the request.
   */
  readonly body?: unknown;
  /**
   * The error the host's body parser failed with, if it did. A body it found too large (status
   * 413, as body-parser, co-body and Fastify report it) is answered 413; text it could not parse
   * (on the error as `body`, as body-parser and co-body keep it) is checked like a body the Pet
   * Store read itself, so the answer is the same 400; anything else is a 400 for invalid JSON.
   */
  readonly bodyError?: unknown;
}

/** Options of {@link createPetStore}. Every one is optional. */
export interface PetStoreOptions {
  /** API keys and the plan each is on. Without keys every operation answers 401. */
  readonly apiKeys?: Readonly<Record<string, Plan>> | ReadonlyMap<string, Plan>;
  /** Where pets live. Default: a fresh {@link memoryPetStorage}. */
  readonly storage?: PetStorage;
  /** Path prefix of every operation. Default `/v1`; `''` serves from the root. */
  readonly basePath?: string;
  /** The clock, in epoch milliseconds. Default `Date.now`; tests pass a controllable one. */
  readonly now?: () => number;
  /** Largest accepted request body in bytes. Default 65,536 (64 KiB). */
  readonly maxBodyBytes?: number;
  /** Status stored when a created pet names none. Default: none (the pet has no `status`). */
  readonly defaultStatus?: PetStatus;
  /** Origins allowed to call from a browser, or `'*'` for any. Default: CORS off. */
  readonly cors?: '*' | readonly string[];
  /** When `GET /pets/{petId}` was deprecated (`Deprecation` header). Default 2026-01-01T00:00:00Z. */
  readonly getPetDeprecatedAt?: Date;
  /** When `GET /pets/{petId}` stops working (`Sunset` header, then 410). Default 2030-12-05T00:00:00Z. */
  readonly getPetSunsetAt?: Date;
  /** Where rate-limit counters and bans live. Default: a fresh {@link memoryRateLimitStore}. */
  readonly rateLimitStore?: RateLimitStore;
  /** A caller is banned when its refused requests within one minute window exceed this. Default 10. */
  readonly banThreshold?: number;
  /** How long a ban lasts, in ms. Default 900,000 (15 minutes). */
  readonly banDurationMs?: number;
  /**
   * The client address that callers without a valid key are limited by. Default: what the
   * runtime adapter reports (the socket's peer). Behind a proxy, read the header it sets, e.g.
   * `(request) => request.headers.get('x-real-ip') ?? undefined`; never trust such a header
   * without a proxy that overwrites it.
   */
  readonly clientAddress?: (request: Request, context: PetStoreContext) => string | undefined;
  /**
   * Which proxies in front of the API to believe about the client's address (`Forwarded`, else
   * `X-Forwarded-For`): a number of hops (`1`: the one proxy in front of you), or the addresses
   * and CIDR ranges of your proxies (`['10.0.0.0/8']`). Default: none; proxy headers are ignored,
   * since any client can send them.
   */
  readonly trustProxy?: number | readonly string[];
  /**
   * Prefix length that groups IPv6 callers without a valid key into one rate-limit subject:
   * one home or server usually owns a whole /56 (or /64), so limiting per /128 would let one
   * of them take 2^72 separate budgets. IPv4 callers are limited per address, and an
   * IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) counts as its IPv4 address. Default 56.
   */
  readonly ipv6Subnet?: number;
  /**
   * The address clients use for the base path, e.g. `https://api.example.com/v1`: URLs the API
   * writes (`Link`, `Location`, the OpenAPI `servers`) start with it. Default: none, and those
   * URLs are relative (`/v1/pets?cursor=…`). They are never built from the request's `Host`.
   */
  readonly publicUrl?: string;
  /**
   * Sees every unexpected error (a storage failure, a bug) before the client gets a generic 500.
   * Default: `console.error`. Requests and keys are never passed to it.
   */
  readonly onError?: (error: unknown) => void;
}

/** {@link PetStoreOptions} with every default filled in. */
export interface ResolvedOptions {
  readonly apiKeys: ReadonlyMap<string, Plan>;
  readonly storage: PetStorage;
  readonly basePath: string;
  readonly now: () => number;
  readonly maxBodyBytes: number;
  readonly defaultStatus: PetStatus | undefined;
  readonly cors: '*' | readonly string[] | undefined;
  readonly getPetDeprecatedAt: Date;
  readonly getPetSunsetAt: Date;
  readonly onError: (error: unknown) => void;
  readonly rateLimitStore: RateLimitStore;
  readonly banThreshold: number;
  readonly banDurationMs: number;
  readonly clientAddress: ((request: Request, context: PetStoreContext) => string | undefined) | undefined;
  readonly trustProxy: number | readonly string[];
  readonly ipv6Subnet: number;
  readonly publicUrl: string | undefined;
}

const DEFAULT_DEPRECATED_AT = new Date('2026-01-01T00:00:00Z');
const DEFAULT_SUNSET_AT = new Date('2030-12-05T00:00:00Z');

/** Fills in defaults and throws a precise `TypeError` for any option that cannot work. */
export function resolveOptions(options: PetStoreOptions): ResolvedOptions {
  assertKnownOptions(options, PET_STORE_OPTION_NAMES, 'createPetStore');
  const basePath = options.basePath ?? '/v1';
  if (typeof basePath !== 'string' || !/^(\/[A-Za-z0-9\-._~]+)*$/.test(basePath)) {
    throw new TypeError('basePath must be "" or path segments like "/v1", without a trailing slash');
  }
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new TypeError('maxBodyBytes must be a positive integer');
  }
  if (options.defaultStatus !== undefined && !v.is(PetStatusSchema, options.defaultStatus)) {
    throw new TypeError('defaultStatus must be "available", "pending" or "sold"');
  }
  const { cors } = options;
  if (cors !== undefined && cors !== '*' && !(Array.isArray(cors) && cors.every(isOrigin))) {
    throw new TypeError('cors must be "*" or an array of origins like "https://example.com"');
  }
  for (const name of ['getPetDeprecatedAt', 'getPetSunsetAt'] as const) {
    const date = options[name];
    if (date !== undefined && !(date instanceof Date && Number.isFinite(date.getTime()))) {
      throw new TypeError(`${name} must be a valid Date`);
    }
  }
  const { banThreshold = 10, banDurationMs = 15 * 60_000 } = options;
  if (!Number.isSafeInteger(banThreshold) || banThreshold < 0) {
    throw new TypeError('banThreshold must be a non-negative integer');
  }
  if (!Number.isSafeInteger(banDurationMs) || banDurationMs < 1) {
    throw new TypeError('banDurationMs must be a positive integer (milliseconds)');
  }
  const { ipv6Subnet = 56 } = options;
  assertIpv6Subnet(ipv6Subnet);
  const { trustProxy = 0 } = options;
  const isHopCount = Number.isSafeInteger(trustProxy) && (trustProxy as number) >= 0;
  if (!isHopCount && !(Array.isArray(trustProxy) && trustProxy.every((range) => typeof range === 'string'))) {
    throw new TypeError('trustProxy must be a number of hops (0 or more) or an array of addresses and CIDR ranges');
  }
  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  for (const name of ['now', 'onError', 'clientAddress'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`${name} must be a function`);
    }
  }
  return {
    apiKeys: resolveApiKeys(options.apiKeys),
    storage: options.storage ?? memoryPetStorage(),
    basePath,
    now: options.now ?? Date.now,
    maxBodyBytes,
    defaultStatus: options.defaultStatus,
    cors,
    getPetDeprecatedAt: options.getPetDeprecatedAt ?? DEFAULT_DEPRECATED_AT,
    getPetSunsetAt: options.getPetSunsetAt ?? DEFAULT_SUNSET_AT,
    onError: options.onError ?? ((error) => console.error('petstore-service: unexpected error', error)),
    rateLimitStore: options.rateLimitStore ?? memoryRateLimitStore(),
    banThreshold,
    banDurationMs,
    clientAddress: options.clientAddress,
    trustProxy,
    ipv6Subnet,
    publicUrl,
  };
}

/** Every option of {@link PetStoreOptions}: a Record over its keys, so a new option must be listed to compile. */
const OPTIONS: Record<keyof PetStoreOptions, true> = {
  apiKeys: true, storage: true, basePath: true, now: true, maxBodyBytes: true, defaultStatus: true, cors: true,
  getPetDeprecatedAt: true, getPetSunsetAt: true, rateLimitStore: true, banThreshold: true, banDurationMs: true,
  clientAddress: true, trustProxy: true, ipv6Subnet: true, publicUrl: true, onError: true,
};

/** The option names {@link createPetStore} accepts, for adapters whose options extend its own. */
export const PET_STORE_OPTION_NAMES: readonly string[] = Object.keys(OPTIONS);

/**
 * Throws a TypeError naming the first option of `options` that is not in `known`, and the known
 * ones, as lru-cache does: a misspelt option fails at startup instead of being ignored.
 *
 * @example
 * assertKnownOptions({ prot: 80 }, ['port', 'hostname'], 'serve'); // TypeError: serve: unknown option "prot"; …
 */
export function assertKnownOptions(options: object, known: readonly string[], what: string): void {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${what}: options must be an object`);
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) throw new TypeError(`${what}: unknown option "${name}"; the options are ${known.join(', ')}`);
  }
}

/** The `[key, plan]` pairs of the `apiKeys` option, whether it is a record or a Map. */
export function apiKeyEntries(apiKeys: PetStoreOptions['apiKeys'] = {}): [string, Plan][] {
  return apiKeys instanceof Map ? [...apiKeys] : Object.entries(apiKeys);
}

function resolveApiKeys(apiKeys: PetStoreOptions['apiKeys']): ReadonlyMap<string, Plan> {
  const keys = new Map<string, Plan>();
  apiKeyEntries(apiKeys).forEach(([key, plan], index) => {
    // Keys are secrets: messages name the entry's position, never the key itself.
    if (typeof key !== 'string' || !API_KEY_PATTERN.test(key)) {
      throw new TypeError(`apiKeys entry ${index + 1}: a key must be a bearer token (letters, digits, -._~+/)`);
    }
    assertPlan(plan, `apiKeys entry ${index + 1}: the plan`);
    keys.set(key, plan);
  });
  return keys;
}

/** `publicUrl` without its trailing slash; a TypeError unless it is an absolute http(s) URL without query or fragment. */
function checkPublicUrl(publicUrl: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof publicUrl === 'string' ? new URL(publicUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new TypeError('publicUrl must be an absolute http(s) URL without query or fragment, like "https://api.example.com/v1"');
  }
  return url.href.replace(/\/+$/, '');
}

function isOrigin(origin: unknown): boolean {
  if (typeof origin !== 'string') return false;
  try {
    return new URL(origin).origin === origin;
  } catch {
    return false;
  }
}
