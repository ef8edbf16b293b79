/** The caller behind trusted proxies: X-Forwarded-For walked from the peer back, however the list is spaced. */
import { describe, expect, it } from 'vitest';
import { createCallerAddress, forwardedFor } from './caller-address.ts';

const PEER = '127.0.0.1';
/** The caller `trustProxy` finds for a request from {@link PEER} with these headers. */
const callerOf = (trustProxy: number | readonly string[], headers: Record<string, string>) =>
  createCallerAddress({ clientAddress: undefined, trustProxy })(new Request('http://localhost/v1/pets', { headers }), { clientAddress: PEER });

describe('the caller behind trusted proxies', () => {
  it.each([
    [1, '203.0.113.7', '203.0.113.7'],
    [1, '198.51.100.1, 203.0.113.7', '203.0.113.7'],
    [2, '198.51.100.1, 203.0.113.7', '198.51.100.1'],
    [5, '198.51.100.1, 203.0.113.7', '198.51.100.1'],
    [2, ' , 198.51.100.1 ,, 203.0.113.7 ,', '198.51.100.1'],
    [1, ',,', PEER],
    [1, '', PEER],
    [0, '203.0.113.7', PEER],
  ])('with %s trusted, X-Forwarded-For "%s" is %s', (trustProxy, list, caller) => {
    expect(callerOf(trustProxy, { 'x-forwarded-for': list })).toBe(caller);
  });

  it('walks X-Forwarded-For as forwardedFor lists it, stopping at the first address not trusted', () => {
    const list = '192.0.2.1 ,10.0.0.2, 198.51.100.9,10.0.0.1';
    const ranges = ['127.0.0.1', '10.0.0.0/8'];
    expect(forwardedFor(new Headers({ 'x-forwarded-for': list }))).toEqual(['192.0.2.1', '10.0.0.2', '198.51.100.9', '10.0.0.1']);
    expect(callerOf(ranges, { 'x-forwarded-for': list })).toBe('198.51.100.9');
    expect(callerOf(['10.0.0.0/8'], { 'x-forwarded-for': list })).toBe(PEER);
  });

  it('reads Forwarded before X-Forwarded-For', () => {
    expect(callerOf(1, { forwarded: 'for=192.0.2.60', 'x-forwarded-for': '203.0.113.7' })).toBe('192.0.2.60');
  });
});
