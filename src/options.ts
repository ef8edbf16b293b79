/** The options of createPetStore: checked eagerly, so a typo fails at startup, and the only place their defaults live. */
import * as v from 'valibot';
import { resolveApiKeys, type ApiKeys } from './auth/api-keys.ts';
import { assertProxyHeader, type CallerAddress, type CallerAddressSettings, type ProxyHeader } from './edge/caller-address.ts';
import { assertIpv6Subnet } from './limits/address.ts';
import type { BanHoldSettings } from './limits/ban-hold.ts';
import type { LimitStore } from './limits/limit-store.ts';
import { memoryLimitStore } from './limits/memory-limit-store.ts';
import type { Plan } from './limits/plans.ts';
import type { OperationSettings } from './operations/types.ts';
import { memoryPetStorage } from './storage/memory-pet-storage.ts';
import { PetStatusSchema, type PetStatus } from './storage/pet.ts';
import type { PetStorage } from './storage/pet-storage.ts';
import { createWarnings, DOCS_URL, type Warnings } from './response/warning.ts';
import { checkAdmin, type AdminOptions, type ResolvedAdmin } from './admin-options.ts';
import { assertKnownOptions } from './option-names.ts';
import type { Telemetry } from './edge/telemetry.ts';
import type { BuildFlags } from './build-flags.ts';

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
  /** How long a banned caller's 429 waits before it is sent, in ms, so a flood costs timers, not requests. Default 1,000; 0: none. */
  readonly banHoldMs?: number;
  /** The most banned requests held at once; past it, answered at once. Default 1,000. */
  readonly maxHeldBans?: number;
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
   * Which proxies in front of the API to believe about the client's address (in the one header
   * `proxyHeader` names): a number of hops (`1`: the one proxy in front of you), or the addresses
   * and CIDR ranges of your proxies (`['10.0.0.0/8']`). Default: none; proxy headers are ignored,
   * since any client can send them.
   */
  readonly trustProxy?: number | readonly string[];
  /**
   * The one header the `trustProxy` proxies are believed in, read from the right: `'x-forwarded-for'`
   * (default) or `'forwarded'` (RFC 7239). The other is never read: a proxy that appends to one
   * passes the other on as the client wrote it. A hop that is no IP address ends the trust there.
   */
  readonly proxyHeader?: 'x-forwarded-for' | 'forwarded';
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
  /**
   * Traces and metrics: what `openTelemetry()` from `petstore-service/opentelemetry` returns. Each
   * request is then a SERVER span of the tracer provider the application registered, continuing
   * the caller's `traceparent`, and is counted in `http.server.request.duration`; calls to
   * PostgreSQL and Redis are its child spans. Default: none, and no cost.
   */
  readonly telemetry?: Telemetry;
}

/**
 * One answered request, as the `onResponse` option of `createPetStore` sees it: the record the
 * access log and telemetry are told of, with the Response. The request's headers carry the
 * caller's key: log what you need (method, path, status), not the headers. The request is a
 * Request, of the class `onRequest` says.
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
  readonly proxyHeader: ProxyHeader;
  readonly apiKeys: ReadonlyMap<string, Plan>;
  readonly basePath: string;
  readonly cors: '*' | readonly string[] | undefined;
  readonly onError: (error: unknown) => void;
  readonly onRequest: ((request: Request) => void) | undefined;
  readonly onResponse: ((exchange: Exchange) => void) | undefined;
  readonly telemetry: Telemetry | undefined;
  readonly limitStore: LimitStore;
  readonly banThreshold: number;
  readonly banDurationMs: number;
  /** `banHoldMs` and `maxHeldBans`, shared by every API the store rebuilds; none in the service worker, which never holds. */
  readonly banHold: BanHoldSettings | undefined;
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
  // The service worker never holds a ban (src/api.ts): it leaves the check out, as it does the hold.
  const banHold = (globalThis as BuildFlags).__PETSTORE_WITHOUT_BAN_HOLD__ ? undefined : banHoldSettings(options);
  const { ipv6Subnet = 56 } = options;
  assertIpv6Subnet(ipv6Subnet);
  const { trustProxy = 0 } = options;
  const isHopCount = Number.isSafeInteger(trustProxy) && (trustProxy as number) >= 0;
  if (!isHopCount && !(Array.isArray(trustProxy) && trustProxy.every((range) => typeof range === 'string'))) {
    throw new TypeError('trustProxy must be a number of hops (0 or more) or an array of addresses and CIDR ranges');
  }
  const { proxyHeader = 'x-forwarded-for' } = options;
  assertProxyHeader(proxyHeader);
  const admin = options.admin === undefined ? undefined : checkAdmin(options);
  const { telemetry } = options;
  if (telemetry !== undefined && typeof (telemetry as Partial<Telemetry> | null)?.forStore !== 'function') {
    throw new TypeError("telemetry must be what openTelemetry() returns: import { openTelemetry } from 'petstore-service/opentelemetry'");
  }
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
    telemetry,
    limitStore: options.limitStore ?? memoryLimitStore(),
    banThreshold,
    banDurationMs,
    banHold,
    clientAddress: options.clientAddress,
    trustProxy,
    proxyHeader,
    ipv6Subnet,
    publicUrl,
    admin,
    warnings,
  };
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
  banHoldMs: true,
  maxHeldBans: true,
  clientAddress: true,
  trustProxy: true,
  proxyHeader: true,
  ipv6Subnet: true,
  publicUrl: true,
  onError: true,
  onRequest: true,
  onResponse: true,
  telemetry: true,
  admin: true,
};

/** The option names {@link createPetStore} accepts, for adapters whose options extend its own. */
export const PET_STORE_OPTION_NAMES: readonly string[] = Object.keys(OPTIONS);

/** The `banHoldMs` and `maxHeldBans` options with their defaults, checked. */
function banHoldSettings({ banHoldMs = 1_000, maxHeldBans = 1_000 }: PetStoreOptions): BanHoldSettings {
  assertInteger('banHoldMs', banHoldMs, 0, ' (milliseconds)');
  assertInteger('maxHeldBans', maxHeldBans, 1);
  return { ms: banHoldMs, max: maxHeldBans };
}

/** A TypeError unless `value` is a whole number from `min` up, worded as the other integer options' are. */
function assertInteger(name: string, value: number, min: 0 | 1, unit = ''): void {
  if (!Number.isSafeInteger(value) || value < min) throw new TypeError(`${name} must be a ${min ? 'positive' : 'non-negative'} integer${unit}`);
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

/**
 * Whether `origin` is an origin as the `cors` option lists one: scheme, host and port, written as a
 * browser sends it in `Origin` (no path, no trailing slash).
 *
 * @example
 * isOrigin('https://app.example'); // true
 * isOrigin('https://app.example/'); // false
 */
export function isOrigin(origin: unknown): boolean {
  if (typeof origin !== 'string') return false;
  try {
    return new URL(origin).origin === origin;
  } catch {
    return false;
  }
}
