/** Authentication: who is calling, judged from `Authorization: Bearer <key>` without timing leaks. */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Subject } from '../limits/limit-store.ts';
import type { Plan } from '../limits/plans.ts';
import { ApiError } from '../response/api-error.ts';

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
// Longer than any sane key; refusing early keeps an attacker from making us hash megabytes.
const MAX_TOKEN_LENGTH = 4096;

/**
 * Builds the function that authenticates a request against `apiKeys`.
 *
 * Keys are compared as SHA-256 digests: the lookup time depends only on the digest of what
 * the client sent, which tells an attacker nothing about any configured key, so the
 * comparison leaks no usable timing. The digest is @noble/hashes' synchronous SHA-256, the
 * same in every runtime: Web Crypto's is asynchronous, and on Node its thread-pool round trip
 * cost more than the rest of a request put together.
 */
export function createAuthenticator(apiKeys: ReadonlyMap<string, Plan>) {
  const callers = callersOf(apiKeys);

  return function authenticate(request: Request): Authentication {
    const token = bearerToken(request.headers.get('authorization'));
    if (token === undefined) {
      return { error: unauthorized('Send an API key: Authorization: Bearer <key>.', CHALLENGE) };
    }
    const caller = token.length <= MAX_TOKEN_LENGTH ? callers.get(keyDigest(token)) : undefined;
    if (caller) return { caller };
    return {
      error: unauthorized('The API key is not valid.', `${CHALLENGE}, error="invalid_token"`),
    };
  };
}

/**
 * Callers by key digest, built once per resolved key map (never changed once made): a request
 * allocates no subject of its own, and a handler rebuilt over the same map (a test store's
 * `reset`) hashes none of the keys again.
 */
const callersByKeys = new WeakMap<ReadonlyMap<string, Plan>, ReadonlyMap<string, Caller>>();

/** The callers of `apiKeys`, by digest, built on first use of that map. */
function callersOf(apiKeys: ReadonlyMap<string, Plan>): ReadonlyMap<string, Caller> {
  let callers = callersByKeys.get(apiKeys);
  if (callers === undefined) {
    const built = new Map<string, Caller>();
    for (const [key, plan] of apiKeys) {
      const keyId = keyDigest(key);
      built.set(keyId, { keyId, subject: `key:${keyId}`, plan });
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

function unauthorized(message: string, challenge: string): ApiError {
  return new ApiError({ status: 401, code: 'unauthorized', message, headers: { 'WWW-Authenticate': challenge } });
}

/** 128 bits of SHA-256 as hex: collision-free in practice, and half the bytes to keep per caller. */
function keyDigest(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)).subarray(0, 16));
}
