/** Configured keys: which `key:plan` texts and `apiKeys` entries a store takes, what it says of the rest, and the longest key it authenticates. */
import { describe, expect, it } from 'vitest';
import { apiKeyEntries, parseApiKeys, resolveApiKeys } from './api-keys.ts';
import { createAuthenticator } from './auth.ts';

const ENTERPRISE = 'API key entry 1: an enterprise plan is enterprise:PER_MINUTE:PER_DAY, two whole numbers above 0, e.g. enterprise:100000:10000000';
const CHARACTERS = 'API key entry 1: the key may hold only letters, digits and - . _ ~ + / (it is sent in a Bearer header)';

describe('parseApiKeys', () => {
  it.each([
    'k:enterprise:0:10',
    'k:enterprise:10:0',
    'k:enterprise:1e3:10',
    'k:enterprise:10:1e3',
    'k:enterprise:0x10:10',
    'k:enterprise:10:0x10',
    'k:enterprise:1:2:3',
    'k:enterprise:-1:10',
    'k:enterprise:1.5:10',
    'k:enterprise: 10:10',
    'k:enterprise:10:',
    'k:enterprise::10',
    'k:enterprise:9007199254740993:10',
  ])('refuses "%s" as an enterprise plan, saying how one is written', (text) => {
    expect(() => parseApiKeys(text)).toThrow(new TypeError(ENTERPRISE));
  });

  it('takes enterprise quotas up to the largest safe integer', () => {
    expect(parseApiKeys('k:enterprise:9007199254740991:10')).toEqual(new Map([['k', { perMinute: 9_007_199_254_740_991, perDay: 10 }]]));
  });

  it('refuses "enterprise" with no quotas after a colon, and a plan that merely starts with a plan name, as unknown plans', () => {
    for (const text of ['k:enterprises:1:2', 'k:freebie', 'k:Free', 'k:']) {
      expect(() => parseApiKeys(text)).toThrow(new TypeError('API key entry 1: an unknown plan; plans: free, pro, business or enterprise:PER_MINUTE:PER_DAY'));
    }
    expect(() => parseApiKeys('k:enterprise')).toThrow(new TypeError(ENTERPRISE));
  });

  it.each(['my key:free', 'k"ey:free', 'ké:free', 'k=ey:free', '=k:free', 'k@home:free', 'k\tey:free', 'k;ey:free'])(
    'refuses the key of "%s": a character a Bearer header cannot carry',
    (text) => {
      expect(() => parseApiKeys(text)).toThrow(new TypeError(CHARACTERS));
    },
  );

  it('says no key came before the ":" of an entry that starts with one', () => {
    expect(() => parseApiKeys(':free')).toThrow(new TypeError('API key entry 1: no key before the ":"; write KEY:PLAN, e.g. my-key:free'));
  });

  it('takes every character of the bearer token syntax, padding at the end, and skips empty entries', () => {
    const key = 'AZaz09-._~+/==';
    expect(parseApiKeys(` ,${key}:pro,, k2:free ,`)).toEqual(
      new Map([
        [key, 'pro'],
        ['k2', 'free'],
      ]),
    );
  });

  it('names the entry a key repeats by its own position among the entries given', () => {
    expect(() => parseApiKeys('a:free,b:pro,c:free,b:business')).toThrow(new TypeError('API key entry 4: the same key as entry 2; give each key once'));
  });
});

describe('resolveApiKeys', () => {
  it('takes a record or a Map, and none at all', () => {
    expect(resolveApiKeys({ a: 'free', b: { perMinute: 1, perDay: 2 } })).toEqual(
      new Map<string, unknown>([
        ['a', 'free'],
        ['b', { perMinute: 1, perDay: 2 }],
      ]),
    );
    expect(resolveApiKeys(new Map([['a', 'pro' as const]]))).toEqual(new Map([['a', 'pro']]));
    expect(resolveApiKeys(undefined)).toEqual(new Map());
    expect(apiKeyEntries()).toEqual([]);
  });

  it('refuses a key a Bearer header cannot carry, naming the entry by position and not the key', () => {
    expect(() => resolveApiKeys({ good: 'free', 'bad key': 'free' })).toThrow(
      new TypeError('apiKeys entry 2: a key must be a bearer token (letters, digits, -._~+/)'),
    );
  });

  it('refuses a Map whose key is not text, though its digits would make a valid token', () => {
    expect(() => resolveApiKeys(new Map([[12345, 'free']]) as never)).toThrow(
      new TypeError('apiKeys entry 1: a key must be a bearer token (letters, digits, -._~+/)'),
    );
  });

  it.each([
    ['fractional quotas', { perMinute: 1, perDay: 1.5 }],
    ['quotas written as text', { perMinute: '5', perDay: 5 }],
    ['null', null],
    ['nothing', undefined],
    ['a number', 5],
    ['an unknown name', 'gold'],
  ])('refuses a plan of %s, naming the entry', (_, plan) => {
    expect(() => resolveApiKeys({ a: plan as never })).toThrow(
      new TypeError('apiKeys entry 1: the plan must be "free", "pro", "business" or { perMinute, perDay } with positive integers'),
    );
  });

  it.each([
    ['a list', ['free']],
    ['a String object', new String('pro')],
  ])('refuses a plan name wrapped in %s, whose text alone names a plan but whose quotas could not be read', (_, plan) => {
    // A property lookup would read either as the name it holds: only text is a plan's name.
    expect(() => resolveApiKeys({ a: plan as never })).toThrow(
      new TypeError('apiKeys entry 1: the plan must be "free", "pro", "business" or { perMinute, perDay } with positive integers'),
    );
  });
});

describe('the longest key', () => {
  const longest = 'k'.repeat(4_096);
  const authenticate = createAuthenticator(parseApiKeys(`${longest}:free`));
  const bearer = (token: string) => new Request('http://api.test/', { headers: { authorization: `Bearer ${token}` } });

  it('authenticates a configured key of exactly 4,096 characters', () => {
    expect(authenticate(bearer(longest))).toMatchObject({ caller: { plan: 'free' } });
  });

  it('answers a token of 4,097 characters as an invalid key, without looking it up', () => {
    const keys = new Map([[`${longest}k`, 'free' as const]]);
    expect(createAuthenticator(keys)(bearer(`${longest}k`))).toMatchObject({ error: { status: 401, code: 'unauthorized' } });
  });
});
