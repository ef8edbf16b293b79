/** anonymousSubject: which callers without a key share one rate-limit budget. */
import { describe, expect, it } from 'vitest';
import { anonymousSubject } from './address.ts';

describe('anonymousSubject', () => {
  it('limits an IPv4 caller by its address', () => {
    expect(anonymousSubject('192.0.2.7', 56)).toBe('address:192.0.2.7');
  });

  it.each(['::ffff:192.0.2.7', '::FFFF:192.0.2.7', '::ffff:c000:207', '0:0:0:0:0:ffff:192.0.2.7'])(
    'counts the IPv4-mapped address %s as the IPv4 caller 192.0.2.7',
    (mapped) => {
      expect(anonymousSubject(mapped, 56)).toBe('address:192.0.2.7');
    },
  );

  it('counts an IPv6 address as IPv4 only when all of its first five parts are zero', () => {
    expect(anonymousSubject('1::ffff:c000:207', 56)).toBe('address:1::/56');
  });

  it('puts every IPv6 address of one /56 in one bucket, named by its network in canonical form', () => {
    const inside = ['2001:db8:1:ff00::1', '2001:db8:1:ff12:3::7', '2001:0DB8:0001:FFFF:FFFF:FFFF:FFFF:FFFF'];
    for (const address of inside) expect(anonymousSubject(address, 56)).toBe('address:2001:db8:1:ff00::/56');
    expect(anonymousSubject('2001:db8:1:fe00::1', 56)).toBe('address:2001:db8:1:fe00::/56');
  });

  it('groups IPv6 callers by the prefix length it is given', () => {
    expect(anonymousSubject('2001:db8:1:ff12:3::7', 64)).toBe('address:2001:db8:1:ff12::/64');
    expect(anonymousSubject('2001:db8:1:ff12:3::7', 48)).toBe('address:2001:db8:1::/48');
    expect(anonymousSubject('2001:db8:1:ff12:3::7', 1)).toBe('address:::/1');
    expect(anonymousSubject('2001:db8:1:ff12:3::7', 128)).toBe('address:2001:db8:1:ff12:3::7/128');
  });

  it('drops a zone id, so a link-local caller cannot change buckets by naming another interface', () => {
    expect(anonymousSubject('fe80::1%eth0', 64)).toBe('address:fe80::/64');
    expect(anonymousSubject('fe80::1%25wlan0', 64)).toBe('address:fe80::/64');
  });

  it.each([undefined, '', 'unknown', 'garbage', '1.2.3.4:80', '[::1]', '127.1', '010.0.0.1', '256.1.1.1', ' 1.2.3.4', '...'])(
    'puts %j in the one shared unknown bucket',
    (address) => {
      expect(anonymousSubject(address, 56)).toBe('address:unknown');
    },
  );

  it.each([0, 129, 1.5, Number.NaN])('rejects the prefix length %s with a TypeError', (ipv6Subnet) => {
    expect(() => anonymousSubject('2001:db8::1', ipv6Subnet)).toThrow(TypeError);
  });
});

describe('anonymousSubject on IPv4 text', () => {
  it.each([
    ['0.0.0.0', 'address:0.0.0.0'],
    ['255.255.255.255', 'address:255.255.255.255'],
    ['10.20.30.40', 'address:10.20.30.40'],
    ['256.1.1.1', 'address:unknown'],
    ['1.2.3', 'address:unknown'],
    ['01.2.3.4', 'address:unknown'],
    ['1.2.3.4 ', 'address:unknown'],
    ['1.2.3.4.5', 'address:unknown'],
  ])('names %s as %s', (address, expected) => {
    expect(anonymousSubject(address, 56)).toBe(expected);
  });
});
