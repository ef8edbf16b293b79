/** Reading the credential: which Authorization values carry a bearer token, and who the token names. */
import { describe, expect, it } from 'vitest';
import { bearerToken, createAuthenticator } from './auth.ts';

describe('bearerToken', () => {
  it('reads the token after the Bearer scheme, in any case, with spaces or tabs around it', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('BEARER\tabc ')).toBe('abc');
    expect(bearerToken(' Bearer  a.b~c+/=')).toBe('a.b~c+/=');
  });

  it('finds no token in a missing header, another scheme, an empty token, or two tokens', () => {
    for (const header of [null, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b', 'Bearerabc', 'Token bearer abc', 'XBearer abc']) {
      expect(bearerToken(header)).toBeUndefined();
    }
  });
});

describe('createAuthenticator', () => {
  const authenticate = createAuthenticator(new Map([['key-1', 'pro' as const]]));
  const withAuthorization = (value: string) => new Request('http://api.test/', { headers: { authorization: value } });

  it('names a configured key by a digest, never by the key itself', () => {
    const outcome = authenticate(withAuthorization('Bearer key-1'));
    expect(outcome).toEqual({ caller: { keyId: expect.stringMatching(/^[0-9a-f]{32}$/), subject: expect.stringMatching(/^key:[0-9a-f]{32}$/), plan: 'pro' } });
    expect(JSON.stringify(outcome)).not.toContain('key-1');
  });

  it('tells a caller without a key how to send one, and a caller with an unknown key that it is not valid', () => {
    expect(authenticate(new Request('http://api.test/'))).toMatchObject({
      error: { code: 'unauthorized', message: 'Send an API key: Authorization: Bearer <key>.' },
    });
    expect(authenticate(withAuthorization('Bearer other'))).toMatchObject({ error: { code: 'unauthorized', message: 'The API key is not valid.' } });
  });

  it('answers 401 with the RFC 6750 challenge, invalid_token only when a token was sent', () => {
    expect(authenticate(new Request('http://api.test/'))).toMatchObject({ error: { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="petstore"' } } });
    expect(authenticate(withAuthorization('Bearer other'))).toMatchObject({
      error: { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="petstore", error="invalid_token"' } },
    });
  });

  it('names a key by the same caller in every authenticator built over the same keys, as a reset store rebuilds it', () => {
    const keys = new Map([['key-2', 'free' as const]]);
    const callerOf = (outcome: ReturnType<ReturnType<typeof createAuthenticator>>) => ('caller' in outcome ? outcome.caller : undefined);
    const first = callerOf(createAuthenticator(keys)(withAuthorization('Bearer key-2')));
    expect(first).toMatchObject({ plan: 'free' });
    expect(callerOf(createAuthenticator(keys)(withAuthorization('Bearer key-2')))).toBe(first);
  });
});
