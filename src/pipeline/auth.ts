/** Authentication: who is calling, judged from `Authorization: Bearer <key>` without timing leaks. */
import { ApiError } from '../errors.ts';
import type { Plan } from '../plans.ts';

/** A caller whose key is configured. */
export interface Caller {
  /** First 128 bits of the key's SHA-256, hex: names the caller to rate limits without the secret. */
  readonly keyId: string;
  /** The plan the key is on. */
  readonly plan: Plan;
}

/** Authentication outcome: a known caller, or the 401 an anonymous caller gets on a protected path. */
export type Authentication = { readonly caller: Caller } | { readonly error: ApiError };

const CHALLENGE = 'Bearer realm="petstore"';
// Longer than any sane key; refusing early keeps an attacker from making us hash megabytes.
const MAX_TOKEN_LENGTH = 4096;

/**
 * Builds the function that authenticates a request against `apiKeys`.
 *
 * Keys are compared as SHA-256 digests: the lookup time depends only on the digest of what
 * the client sent, which tells an attacker nothing about any configured key, so the
 * comparison leaks no usable timing, in every runtime (Web Crypto, no `node:crypto`).
 */
export function createAuthenticator(apiKeys: ReadonlyMap<string, Plan>) {
  const callers = Promise.all(
    [...apiKeys].map(async ([key, plan]) => ({ keyId: await keyDigest(key), plan })),
  ).then((list) => new Map(list.map((caller) => [caller.keyId, caller])));

  return async function authenticate(request: Request): Promise<Authentication> {
    const token = bearerToken(request.headers.get('authorization'));
    if (token === undefined) {
      return { error: unauthorized('Send an API key: Authorization: Bearer <key>.', CHALLENGE) };
    }
    const caller =
      token.length <= MAX_TOKEN_LENGTH ? (await callers).get(await keyDigest(token)) : undefined;
    if (caller) return { caller };
    return {
      error: unauthorized('The API key is not valid.', `${CHALLENGE}, error="invalid_token"`),
    };
  };
}

/** The token of a `Bearer` credential (scheme case-insensitive), or `undefined` when there is none. */
function bearerToken(header: string | null): string | undefined {
  const match = /^[ \t]*bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

function unauthorized(message: string, challenge: string): ApiError {
  return new ApiError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': challenge });
}

/** 128 bits of SHA-256 as hex: collision-free in practice, and half the bytes to keep per caller. */
async function keyDigest(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)), 0, 16);
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
