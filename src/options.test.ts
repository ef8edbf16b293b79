/** Option validation at creation and the PETSTORE_API_KEYS parser. */
import { describe, expect, it } from 'vitest';
import { parseApiKeys } from './auth/api-keys.ts';
import type { PetStoreOptions } from './options.ts';
import { createPetStore } from '../compose/create-pet-store.ts';

describe('createPetStore options', () => {
  it.each<[string, PetStoreOptions, RegExp]>([
    ['a basePath with a trailing slash', { basePath: '/v1/' }, /basePath/],
    ['a basePath without a leading slash', { basePath: 'v1' }, /basePath/],
    ['a zero maxBodyBytes', { maxBodyBytes: 0 }, /maxBodyBytes/],
    ['a fractional maxBodyBytes', { maxBodyBytes: 1.5 }, /maxBodyBytes/],
    ['an unknown defaultStatus', { defaultStatus: 'lost' as never }, /defaultStatus/],
    ['a cors origin with a path', { cors: ['https://a.example/x'] }, /cors/],
    ['an invalid date', { getPetSunsetAt: new Date('nope') }, /getPetSunsetAt/],
    ['a clock that is not a function', { now: 5 as never }, /now/],
    ['an onRequest that is not a function', { onRequest: 'log' as never }, /^onRequest must be a function$/],
    ['an onResponse that is not a function', { onResponse: {} as never }, /^onResponse must be a function$/],
    ['an unknown plan', { apiKeys: { k: 'gold' as never } }, /apiKeys entry 1: the plan/],
    ['an enterprise plan with zero quota', { apiKeys: { k: { perMinute: 0, perDay: 5 } } }, /apiKeys entry 1/],
    ['a key with a space', { apiKeys: { 'my key': 'free' } }, /apiKeys entry 1/],
    ['an ipv6Subnet of 0', { ipv6Subnet: 0 }, /ipv6Subnet/],
    ['an ipv6Subnet over 128', { ipv6Subnet: 129 }, /ipv6Subnet/],
    ['a relative publicUrl', { publicUrl: '/v1' }, /publicUrl/],
    ['a publicUrl with a query', { publicUrl: 'https://api.example.com/v1?x=1' }, /publicUrl/],
    ['a publicUrl that is not http(s)', { publicUrl: 'ftp://api.example.com/v1' }, /publicUrl/],
    ['a negative banHoldMs', { banHoldMs: -1 }, /^banHoldMs must be a non-negative integer \(milliseconds\)$/],
    ['a fractional banHoldMs', { banHoldMs: 0.5 }, /^banHoldMs must be a non-negative integer \(milliseconds\)$/],
    ['a maxHeldBans of 0', { maxHeldBans: 0 }, /^maxHeldBans must be a positive integer$/],
    ['a banHoldMs that is a string', { banHoldMs: '1000' as never }, /^banHoldMs must be/],
    ['maxHeldBan for maxHeldBans', { maxHeldBan: 5 } as never, /unknown option "maxHeldBan" \(did you mean "maxHeldBans"\?\)/],
    ['a negative trustProxy', { trustProxy: -1 }, /trustProxy/],
    ['a trustProxy that is a string', { trustProxy: '10.0.0.0/8' as never }, /trustProxy/],
    ['a proxyHeader it does not read', { proxyHeader: 'x-real-ip' as never }, /^proxyHeader must be "x-forwarded-for" or "forwarded", got "x-real-ip"$/],
    [
      'a misspelt option',
      { apikeys: { k: 'free' } } as never,
      /^createPetStore: unknown option "apikeys" \(did you mean "apiKeys"\?\); the options are apiKeys, storage, /,
    ],
    ['basPath for basePath', { basPath: '/x' } as never, /unknown option "basPath" \(did you mean "basePath"\?\)/],
  ])('throws a TypeError at creation for %s', (_, options, message) => {
    expect(() => createPetStore(options)).toThrow(TypeError);
    expect(() => createPetStore(options)).toThrow(message);
  });

  it('never puts a key in an error message', () => {
    expect(() => createPetStore({ apiKeys: { 'secret key!': 'free' } })).toThrow(/^(?!.*secret)/);
  });

  it.each<[string, unknown]>([
    ['an array of key:plan texts', ['k:free']],
    ['a key:plan text', 'k:free,k2:pro'],
    ['null', null],
  ])('refuses apiKeys as %s with a TypeError that points at { key: plan } and parseApiKeys', (_, apiKeys) => {
    expect(() => createPetStore({ apiKeys: apiKeys as never })).toThrow(
      new TypeError(
        "apiKeys must be an object from key to plan, like { 'my-key': 'free' }, or a Map; for key:plan text (as PETSTORE_API_KEYS holds), pass parseApiKeys('my-key:free')",
      ),
    );
  });

  it('accepts apiKeys as a Map', async () => {
    const petstore = createPetStore({ apiKeys: new Map([['k1', 'pro']]) });
    const response = await petstore.fetch('http://localhost/v1/pets', { headers: { authorization: 'Bearer k1' } });
    expect(response.status).toBe(200);
  });
});

describe('parseApiKeys', () => {
  it('reads the PETSTORE_API_KEYS format with every plan', () => {
    expect(parseApiKeys('k1:free, k2:pro,k3:business,k4:enterprise:100000:10000000')).toEqual(
      new Map<string, unknown>([
        ['k1', 'free'],
        ['k2', 'pro'],
        ['k3', 'business'],
        ['k4', { perMinute: 100_000, perDay: 10_000_000 }],
      ]),
    );
    expect(parseApiKeys('')).toEqual(new Map());
  });

  it.each([
    ['nocolon', 'API key entry 1: no ":plan" after the key; write KEY:PLAN, e.g. my-key:free (plans: free, pro, business or enterprise:PER_MINUTE:PER_DAY)'],
    ['k1:free,k2:gold', 'API key entry 2: an unknown plan; plans: free, pro, business or enterprise:PER_MINUTE:PER_DAY'],
    ['k1:free,k1:pro', 'API key entry 2: the same key as entry 1; give each key once'],
  ])('says what "%s" lacks in the words of the text format', (text, message) => {
    expect(() => parseApiKeys(text)).toThrow(new TypeError(message));
  });

  it.each(['k1', 'k1:gold', 'k1:enterprise', 'k1:enterprise:10', 'k1:enterprise:x:10', 'k1:free:extra', ':free', 'k1:free,k1:pro'])(
    'rejects "%s" with a TypeError that names the entry, not the key',
    (text) => {
      expect(() => parseApiKeys(text)).toThrow(/^API key entry \d/);
      expect(() => parseApiKeys(text)).not.toThrow(/k1/);
    },
  );
});
