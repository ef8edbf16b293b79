/** The caller behind trusted proxies: only the header chosen, walked from the peer back, trust ending at a hop that is no address. */
import { describe, expect, it } from 'vitest';
import { createCallerAddress, type ProxyHeader } from './caller-address.ts';

const PEER = '127.0.0.1';
/** The caller `trustProxy` finds for a request from {@link PEER} with these headers, reading `proxyHeader` (default: X-Forwarded-For). */
const callerOf = (trustProxy: number | readonly string[], headers: Record<string, string>, proxyHeader?: ProxyHeader) =>
  createCallerAddress({ clientAddress: undefined, trustProxy, ...(proxyHeader && { proxyHeader }) })(new Request('http://localhost/v1/pets', { headers }), {
    clientAddress: PEER,
  });

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
    [1, '2001:db8::7', '2001:db8::7'],
    [1, '203.0.113.5:4711', '203.0.113.5'],
    [1, '[2001:db8::8]:4711', '2001:db8::8'],
  ])('with %s trusted, X-Forwarded-For "%s" is %s', (trustProxy, list, caller) => {
    expect(callerOf(trustProxy, { 'x-forwarded-for': list })).toBe(caller);
  });

  it('walks X-Forwarded-For from the peer back, stopping at the first address not trusted', () => {
    const list = '192.0.2.1 ,10.0.0.2, 198.51.100.9,10.0.0.1';
    expect(callerOf(['127.0.0.1', '10.0.0.0/8'], { 'x-forwarded-for': list })).toBe('198.51.100.9');
    expect(callerOf(['10.0.0.0/8'], { 'x-forwarded-for': list })).toBe(PEER);
  });

  it('believes X-Forwarded-For alone by default: a Forwarded header the client wrote, passed on by the proxy, changes nothing', () => {
    const headers = { 'x-forwarded-for': '203.0.113.9', forwarded: 'for=198.51.100.7' };
    expect(callerOf(1, headers)).toBe('203.0.113.9');
    expect(callerOf(1, { forwarded: 'for=198.51.100.7' })).toBe(PEER);
  });

  it('believes Forwarded alone when it is the header chosen: an X-Forwarded-For the client wrote changes nothing', () => {
    expect(callerOf(1, { forwarded: 'for=203.0.113.9', 'x-forwarded-for': '198.51.100.7' }, 'forwarded')).toBe('203.0.113.9');
    expect(callerOf(1, { 'x-forwarded-for': '198.51.100.7' }, 'forwarded')).toBe(PEER);
  });

  it.each([
    [1, 'for=198.51.100.1, for=203.0.113.7', '203.0.113.7'],
    [2, 'for=198.51.100.1;proto=https, for=203.0.113.7;by=10.0.0.1', '198.51.100.1'],
    [1, 'for="[2001:db8::1]:4711"', '2001:db8::1'],
    [1, 'for=192.0.2.60:4711', '192.0.2.60'],
    [1, 'FOR="192.0.2.61"', '192.0.2.61'],
    [1, 'proto=https;for=192.0.2.62', '192.0.2.62'],
  ])('with %s trusted, Forwarded "%s" is %s', (trustProxy, forwarded, caller) => {
    expect(callerOf(trustProxy, { forwarded }, 'forwarded')).toBe(caller);
  });

  it.each([
    [1, '203.0.113.5 (admin login ok)', PEER],
    [1, 'unknown', PEER],
    [2, '198.51.100.1, proxy.example, 203.0.113.7', '203.0.113.7'],
    [3, '198.51.100.1, 2001:db8::zz, 203.0.113.7', '203.0.113.7'],
  ])('ends the trust at a hop of X-Forwarded-For that is no IP address: with %s trusted, "%s" is %s', (trustProxy, list, caller) => {
    expect(callerOf(trustProxy, { 'x-forwarded-for': list })).toBe(caller);
  });

  it.each([
    [1, 'for=unknown', PEER],
    [1, 'for=_hidden', PEER],
    [2, 'for=198.51.100.1, by=10.0.0.1, for=203.0.113.7', '203.0.113.7'],
    [2, 'for=198.51.100.1, for="203.0.113.5 (admin login ok)", for=203.0.113.7', '203.0.113.7'],
  ])('ends the trust at an element of Forwarded with no IP address for: with %s trusted, "%s" is %s', (trustProxy, forwarded, caller) => {
    expect(callerOf(trustProxy, { forwarded }, 'forwarded')).toBe(caller);
  });

  it('refuses a proxyHeader it does not know with a TypeError naming the two it reads', () => {
    expect(() => createCallerAddress({ clientAddress: undefined, trustProxy: 1, proxyHeader: 'x-real-ip' as ProxyHeader })).toThrow(
      new TypeError('proxyHeader must be "x-forwarded-for" or "forwarded", got "x-real-ip"'),
    );
  });
});
