/** The options of createPetStore: checked eagerly, so a typo fails at startup, and the only place their defaults live. */
import * as v from 'valibot';
import { resolveApiKeys, type ApiKeys } from './auth/api-keys.ts';
import type { CallerAddress, CallerAddressSettings } from './edge/caller-address.ts';
import { assertIpv6Subnet } from './limits/address.ts';
import type { LimitStore } from './limits/limit-store.ts';
import { memoryLimitStore } from './limits/memory-limit-store.ts';
import type { Plan } from './limits/plans.ts';
import type { OperationSettings } from './operations/types.ts';
import { memoryPetStorage } from './storage/memory-pet-storage.ts';
import { PetStatusSchema, type PetStatus } from './storage/pet.ts';
import type { PetStorage } from './storage/pet-storage.ts';
import { createWarnings, DOCS_URL, type Warnings } from './response/warning.ts';

/**
 * Options of `createPetStore`. Every one is optional; a name it does not know is a `TypeError`.
 *
 * @example
 * const options: PetStoreOptions = { apiKeys: { 'my-key': 'pro' }, basePath: '/api', cors: ['https://app.example.com'] };
 */
export interface PetStoreOptions {
  /** API keys and the plan each is on. Without keys every operation answers 401. */
  readonly apiKeys?: ApiKeys;
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
  /** Where rate-limit counters and bans live. Default: a fresh {@link memoryLimitStore}. */
  readonly limitStore?: LimitStore;
  /** A caller is banned when its refused requests within one minute window exceed this. Default 10. */
  readonly banThreshold?: number;
  /** How long a ban lasts, in ms. Default 900,000 (15 minutes). */
  readonly banDurationMs?: number;
  /**
   * The client address that callers without a valid key are limited by. Default: what the
   * runtime adapter reports (the socket's peer). Behind a proxy, read the header it sets, e.g.
   * `(request) => request.headers.get('x-real-ip') ?? undefined`; never trust such a header
   * without a proxy that overwrites it. Called only for callers without a valid key (and, with
   * `onResponse`, for its `clientAddress`), with a Request (see `onRequest` for which class);
   * do not read its body. Where the store answers without making a Request (node:http with no
   * hooks, `petstore.fetch(url, init)`), one is made for this call.
   */
  readonly clientAddress?: CallerAddress;
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
   * Sees every unexpected error (a storage failure, a bug) before the client gets a generic 500,
   * and each {@link PetStoreWarning} once. Default: `console.error`, and warnings as one line on
   * stderr (`console.warn`). Requests and keys are never passed to it.
   */
  readonly onError?: (error: unknown) => void;
  /**
   * Mounts the admin API under `/__admin` (outside the base path), for a fake backend: reset,
   * seed, the clock, faults and the request journal over HTTP, each call with
   * `Authorization: Bearer <token>`. Pets and limits are then kept in memory (no `storage` or
   * `limitStore`). Default: off, and `/__admin` is a 404.
   */
  readonly admin?: AdminOptions;
  /**
   * Sees every request the handler answers, as it arrives (API calls, preflights, 404s outside the
   * base path, `/healthz`). Observe only: do not read its body. What it throws goes to `onError`.
   * Every callback is handed a whole Request: the runtime's own, or the one passed to
   * `petstore.fetch`; under node:http (`serve`, `createServer(petstore)`, Express, Koa, Fastify)
   * the Request of @whatwg-node/fetch, which the node:http bridge runs on: it has every member of
   * a Request, but `request instanceof Request` is false there.
   */
  readonly onRequest?: (request: Request) => void;
  /**
   * Sees every answer as it leaves: the request, the response (do not read its body), how long it
   * took and the caller's address. An access log goes here. What it throws goes to `onError`; the
   * client's answer is never changed.
   */
  readonly onResponse?: (exchange: Exchange) => void;
}

/**
 * One answered request, as the `onResponse` option of `createPetStore` sees it. The request's
 * headers carry the caller's key: log what you need (method, path, status), not the headers.
 * The request is a Request, of the class `onRequest` says.
 *
 * @example
 * const petstore = createPetStore({
 *   onResponse: ({ request, response, ms, clientAddress }: Exchange) => {
 *     const { pathname, search } = new URL(request.url);
 *     console.log(`${request.method} ${pathname}${search} ${response.status} ${ms.toFixed(1)}ms ${clientAddress ?? '-'}`);
 *   },
 * });
 */
export interface Exchange {
  readonly request: Request;
  /** What the client gets. Do not consume its body: it is still to be sent. */
  readonly response: Response;
  /** Milliseconds from arrival to the answer (`performance.now`). */
  readonly ms: number;
  /** The caller's address as the rate limits see it (after `trustProxy`), when the host tells it. */
  readonly clientAddress?: string;
}

/** {@link PetStoreOptions} with every default filled in: what the pipeline's steps are built from. */
export interface ResolvedOptions extends OperationSettings, CallerAddressSettings {
  readonly apiKeys: ReadonlyMap<string, Plan>;
  readonly basePath: string;
  readonly cors: '*' | readonly string[] | undefined;
  readonly onError: (error: unknown) => void;
  readonly onRequest: ((request: Request) => void) | undefined;
  readonly onResponse: ((exchange: Exchange) => void) | undefined;
  readonly limitStore: LimitStore;
  readonly banThreshold: number;
  readonly banDurationMs: number;
  readonly ipv6Subnet: number;
  readonly publicUrl: string | undefined;
  readonly admin: ResolvedAdmin | undefined;
  /** What the store tells once: shared by every API a fake backend rebuilds from these options. */
  readonly warnings: Warnings;
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
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) throw new TypeError('maxBodyBytes must be a positive integer');
  if (options.defaultStatus !== undefined && !v.is(PetStatusSchema, options.defaultStatus))
    throw new TypeError('defaultStatus must be "available", "pending" or "sold"');
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
  if (!Number.isSafeInteger(banThreshold) || banThreshold < 0) throw new TypeError('banThreshold must be a non-negative integer');
  if (!Number.isSafeInteger(banDurationMs) || banDurationMs < 1) throw new TypeError('banDurationMs must be a positive integer (milliseconds)');
  const { ipv6Subnet = 56 } = options;
  assertIpv6Subnet(ipv6Subnet);
  const { trustProxy = 0 } = options;
  const isHopCount = Number.isSafeInteger(trustProxy) && (trustProxy as number) >= 0;
  if (!isHopCount && !(Array.isArray(trustProxy) && trustProxy.every((range) => typeof range === 'string'))) {
    throw new TypeError('trustProxy must be a number of hops (0 or more) or an array of addresses and CIDR ranges');
  }
  const admin = options.admin === undefined ? undefined : checkAdmin(options);
  for (const name of ['now', 'onError', 'clientAddress', 'onRequest', 'onResponse'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw new TypeError(`${name} must be a function`);
  }
  // Last: a warning is told only about options that are otherwise fine, and onError is known to be a function.
  const warnings = createWarnings(options.onError);
  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl, basePath, warnings);
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
    onRequest: options.onRequest,
    onResponse: options.onResponse,
    limitStore: options.limitStore ?? memoryLimitStore(),
    banThreshold,
    banDurationMs,
    clientAddress: options.clientAddress,
    trustProxy,
    ipv6Subnet,
    publicUrl,
    admin,
    warnings,
  };
}

/**
 * The admin API's settings: its token, and the bounds of what it keeps (the command's
 * `--admin-token`, `--sandboxes`, `--sandbox-idle` and `--journal`).
 *
 * @example
 * const admin: AdminOptions = { token: 'my-admin-token-0123', sandboxes: 50, sandboxIdleMinutes: 10, journal: 1_000 };
 */
export interface AdminOptions {
  /** The Bearer token every admin call carries: 16 characters or more. */
  readonly token: string;
  /** The most sandboxes at once, 1 to 100,000; one more is a 409. Default 1,000. */
  readonly sandboxes?: number;
  /** A sandbox no request or admin call has used for this many minutes (1 to 10,080, a week) is deleted. Default 30. */
  readonly sandboxIdleMinutes?: number;
  /** The exchanges each world's journal keeps, newest first to stay, 1 to 1,000,000. Default 10,000. */
  readonly journal?: number;
}

/** {@link AdminOptions} checked, every bound filled in. */
export type ResolvedAdmin = Required<AdminOptions>;

/** The bounds of the admin API's settings, and their defaults: the command's flags check against them too. */
export const ADMIN_BOUNDS = {
  sandboxes: { min: 1, max: 100_000, default: 1_000 },
  sandboxIdleMinutes: { min: 1, max: 10_080, default: 30 },
  journal: { min: 1, max: 1_000_000, default: 10_000 },
} as const;

/** The `admin` option, or a TypeError: a token of 16 characters or more, bounds in range, and the memory stores the admin API resets. */
function checkAdmin({ admin, storage, limitStore }: PetStoreOptions): ResolvedAdmin {
  if (typeof admin !== 'object' || admin === null) throw new TypeError('admin must be an object like { token: "<16 or more characters>" }');
  assertKnownOptions(admin, ['token', ...Object.keys(ADMIN_BOUNDS)], 'admin');
  if (typeof admin.token !== 'string' || admin.token.trim().length < 16) throw new TypeError('admin.token must be a string of 16 or more characters');
  if (storage !== undefined || limitStore !== undefined) {
    throw new TypeError('admin works with the built-in memory stores, which it resets: leave out storage and limitStore');
  }
  const bounded = (name: keyof typeof ADMIN_BOUNDS) => adminBound(name, admin[name], `admin.${name}`);
  return { token: admin.token, sandboxes: bounded('sandboxes'), sandboxIdleMinutes: bounded('sandboxIdleMinutes'), journal: bounded('journal') };
}

/**
 * `value` of the admin setting `name` (its default when `undefined`), or a TypeError naming it as
 * `label` with its range: the `admin` option's check, and the test kit's of the same settings.
 *
 * @example
 * adminBound('journal', undefined, 'journal'); // 10000
 * adminBound('sandboxes', 0, 'sandboxes'); // TypeError: sandboxes must be a whole number from 1 to 100000
 */
export function adminBound(name: keyof typeof ADMIN_BOUNDS, value: unknown, label: string): number {
  const { min, max, default: fallback } = ADMIN_BOUNDS[name];
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !Number.isSafeInteger(chosen) || chosen < min || chosen > max) {
    throw new TypeError(`${label} must be a whole number from ${min} to ${max}`);
  }
  return chosen;
}

/** Every option of {@link PetStoreOptions}: a Record over its keys, so a new option must be listed to compile. */
const OPTIONS: Record<keyof PetStoreOptions, true> = {
  apiKeys: true,
  storage: true,
  basePath: true,
  now: true,
  maxBodyBytes: true,
  defaultStatus: true,
  cors: true,
  getPetDeprecatedAt: true,
  getPetSunsetAt: true,
  limitStore: true,
  banThreshold: true,
  banDurationMs: true,
  clientAddress: true,
  trustProxy: true,
  ipv6Subnet: true,
  publicUrl: true,
  onError: true,
  onRequest: true,
  onResponse: true,
  admin: true,
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
    if (known.includes(name)) continue;
    const near = known.find((candidate) => editDistance(name.toLowerCase(), candidate.toLowerCase()) <= 2);
    const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
    throw new TypeError(`${what}: unknown option "${name}"${hint}; the options are ${known.join(', ')}`);
  }
}

/** Levenshtein distance: how many single-letter edits turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * `publicUrl` without its trailing slash; a TypeError unless it is an absolute http(s) URL without
 * query or fragment. A bare origin in front of a base path is warned: links would miss the base path.
 */
function checkPublicUrl(publicUrl: unknown, basePath: string, warnings: Warnings): string {
  let url: URL | undefined;
  try {
    url = typeof publicUrl === 'string' ? new URL(publicUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new TypeError('publicUrl must be an absolute http(s) URL without query or fragment, like "https://api.example.com/v1"');
  }
  const href = url.href.replace(/\/+$/, '');
  if (url.pathname === '/' && basePath !== '') {
    const what = `publicUrl (${href}) has no path, so the links the API writes (${href}/pets) miss ${basePath}`;
    const fix = `publicUrl is the address of the base path, such as ${href}${basePath}, unless a proxy maps ${href}/ onto ${basePath}/`;
    warnings.warn('PETSTORE_PUBLIC_URL_PATH', `${what}: ${fix}. See ${DOCS_URL}/errors.md#petstore_public_url_path`);
  }
  return href;
}

function isOrigin(origin: unknown): boolean {
  if (typeof origin !== 'string') return false;
  try {
    return new URL(origin).origin === origin;
  } catch {
    return false;
  }
}
