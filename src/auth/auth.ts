/** Authentication: who is calling, judged from `Authorization: Bearer <key>` without timing leaks. */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Subject } from '../limits/limit-store.ts';
import type { Plan } from '../limits/plans.ts';
import type { ApiRequest } from '../operations/request.ts';
import { ApiError } from '../response/api-error.ts';
import { fixedError } from '../response/reply.ts';

/** A caller whose key is configured, as authentication finds it. */
export interface Caller {
  /** First 128 bits of the key's SHA-256, hex: names the caller without the secret. */
  readonly keyId: string;
  /** The caller's rate-limit subject, `key:<keyId>`. */
  readonly subject: Subject;
  /** The plan the key is on. */
  readonly plan: Plan;
}

/** Authentication outcome: a known caller, or the 401 an anonymous caller gets on a protected path. */
type Authentication = { readonly caller: Caller } | { readonly error: ApiError };

const CHALLENGE = 'Bearer realm="petstore"';
// Longer than any sane key; refusing early keeps an attacker from making us hash megabytes into a lookup.
const MAX_TOKEN_LENGTH = 4096;

/** The two refusals, made and serialized once: they never vary, so a flood of bad keys allocates no error and no body (BENCHMARKS.md, HTTP: the 401 row). */
const MISSING_KEY: Authentication = { error: unauthorized('Send an API key: Authorization: Bearer <key>.', CHALLENGE) };
const INVALID_KEY: Authentication = { error: unauthorized('The API key is not valid.', `${CHALLENGE}, error="invalid_token"`) };

/**
 * Builds the function that authenticates a request against `apiKeys`.
 *
 * The key a client sends is looked up as it is, in a Map of the configured keys: a miss compares
 * hashes, never characters, so its time tells an attacker nothing about how much of a key they
 * guessed, and no digest is computed per request (a SHA-256 per request was a measurable
 * share of each: BENCHMARKS.md, Findings). Each configured key's digest is computed once, for its `keyId`.
 */
export function createAuthenticator(apiKeys: ReadonlyMap<string, Plan>) {
  const callers = callersOf(apiKeys);

  return function authenticate(request: ApiRequest): Authentication {
    const token = bearerToken(request.headers.get('authorization'));
    if (token === undefined) return MISSING_KEY;
    return (token.length <= MAX_TOKEN_LENGTH && callers.get(token)) || INVALID_KEY;
  };
}

/**
 * Each key's authentication, built once per resolved key map (never changed once made): a
 * request allocates nothing of its own, and a handler rebuilt over the same map (a test store's
 * `reset`) hashes none of the keys again.
 */
const callersByKeys = new WeakMap<ReadonlyMap<string, Plan>, ReadonlyMap<string, Authentication>>();

/** The authentication of each key of `apiKeys`, by key, built on first use of that map. */
function callersOf(apiKeys: ReadonlyMap<string, Plan>): ReadonlyMap<string, Authentication> {
  let callers = callersByKeys.get(apiKeys);
  if (callers === undefined) {
    const built = new Map<string, Authentication>();
    for (const [key, plan] of apiKeys) {
      const keyId = keyDigest(key);
      built.set(key, { caller: { keyId, subject: `key:${keyId}`, plan } });
    }
    callersByKeys.set(apiKeys, (callers = built));
  }
  return callers;
}

/**
 * The token of a `Bearer` credential (scheme case-insensitive), or `undefined` when there is none.
 *
 * @example
 * bearerToken('bearer abc'); // 'abc'
 */
export function bearerToken(header: string | null): string | undefined {
  const match = /^[ \t]*bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

/** A 401, its reply serialized once: the same two are answered to every caller without a valid key. */
function unauthorized(message: string, challenge: string): ApiError {
  return fixedError(new ApiError({ status: 401, code: 'unauthorized', message, headers: { 'WWW-Authenticate': challenge } }));
}

/** 128 bits of SHA-256 as hex: collision-free in practice, and half the bytes to keep per caller. */
function keyDigest(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)).subarray(0, 16));
}
