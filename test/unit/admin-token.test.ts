/** The admin token the `admin` option takes: one a client can send in `Authorization: Bearer` (RFC 6750 token68), 16 characters or more. */
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';

const SENDABLE = /^admin\.token must be 16 or more characters a client can send in Authorization: Bearer/;

describe('the admin option', () => {
  it('refuses a token with a character Authorization: Bearer cannot carry, with a TypeError naming admin.token', () => {
    for (const token of [
      'my admin token 0123',
      'admin-token-0123456789\n',
      ' admin-token-0123456789',
      'admin-token-é-0123456789',
      'admin:token:0123456789',
      'admin=token-0123456789',
    ]) {
      expect(() => createPetStore({ admin: { token } }), JSON.stringify(token)).toThrow(TypeError);
      expect(() => createPetStore({ admin: { token } }), JSON.stringify(token)).toThrow(SENDABLE);
    }
  });

  it('refuses a token shorter than 16 characters, and takes every token68 one', async () => {
    expect(() => createPetStore({ admin: { token: 'short-token' } })).toThrow(SENDABLE);
    for (const token of ['Abc-._~+/0123456789', 'YWRtaW4tdG9rZW4tMDEyMw==', 'a'.repeat(16)]) {
      const petstore = createPetStore({ admin: { token } });
      const response = await petstore.fetch('http://localhost/__admin/pets', { headers: { authorization: `Bearer ${token}` } });
      expect([token, response.status]).toEqual([token, 200]);
    }
  });
});
