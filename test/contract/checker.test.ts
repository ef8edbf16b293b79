/** The contract checker itself: it accepts what the API sends and catches what would break clients. */
import { describe, expect, it } from 'vitest';
import { contractCheckerFor, type Exchange } from './checker.ts';

const quota = {
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '1795341660',
  ratelimit: '"minute";r=59;t=40, "day";r=999;t=50000',
  'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
};
/** An exchange to check: headers as a record, `without` naming one header to leave out. */
type Overrides = Omit<Partial<Exchange>, 'headers'> & { headers?: Record<string, string>; without?: string };

const exchange = ({ headers, without, ...overrides }: Overrides): Exchange => {
  const all = new Headers({ 'content-type': 'application/json', ...quota, ...headers });
  if (without) all.delete(without);
  return { method: 'GET', path: '/pets', status: 200, body: '[]', ...overrides, headers: all };
};

describe('contract checker', () => {
  it('accepts a conforming list and a conforming error', async () => {
    const check = await contractCheckerFor('/v1');
    expect(check(exchange({ body: '[{"id":1,"name":"Rex","categoryId":2}]' }))).toEqual([]);
    const unauthorized = {
      status: 401,
      body: '{"code":"unauthorized","message":"x","status":401}',
      headers: { 'www-authenticate': 'Bearer realm="petstore"' },
    };
    expect(check(exchange(unauthorized))).toEqual([]);
  });

  it.each<[string, Overrides, RegExp]>([
    ['a pet without a name', { body: '[{"id":1,"categoryId":2}]' }, /body/],
    ['a pet with id 0', { body: '[{"id":0,"name":"a","categoryId":2}]' }, /body/],
    ['an undocumented status', { status: 418, body: '{}' }, /not documented/],
    ['an Error whose status differs', { status: 400, body: '{"code":"invalid_request","message":"x","status":422}' }, /Error.status/],
    ['an unknown error code', { status: 400, body: '{"code":"oops","message":"x","status":400}' }, /body/],
    ['a missing quota header', { without: 'x-ratelimit-remaining' }, /X-RateLimit-Remaining/],
    ['a 401 without a challenge', { status: 401, body: '{"code":"unauthorized","message":"x","status":401}' }, /WWW-Authenticate/],
    ['a malformed RateLimit header', { headers: { ratelimit: 'remaining=5' } }, /RateLimit/],
    ['HTML instead of JSON', { body: '<html>' }, /not JSON/],
  ])('rejects %s', async (_, overrides, problem) => {
    const check = await contractCheckerFor('/v1');
    expect(check(exchange(overrides)).join('\n')).toMatch(problem);
  });
});
