/** The URL parser's reading of IP addresses and ranges agrees with ipaddr.js, which the library used before issue #45 took it out of the service worker. */
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { anonymousSubject, ipOf } from './address.ts';
import { inRange, ipv4Parts, ipv6Parts, rangeOf } from './ip.ts';

/** ipaddr.js's reading of a socket's address, as address.ts made it: its kind and parts (octets for IPv4). */
function ipaddrOf(address: string): { kind: string; parts: number[] } | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return { kind: 'ipv4', parts: ipaddr.IPv4.parse(address).octets };
  if (!ipaddr.IPv6.isValid(address)) return undefined;
  const ip = ipaddr.IPv6.parse(address);
  return ip.isIPv4MappedAddress() ? { kind: 'ipv4', parts: ip.toIPv4Address().octets } : { kind: 'ipv6', parts: ip.parts };
}

/** ipaddr.js's reading of a trustProxy range, as caller-address.ts made it. */
function ipaddrRange(range: string): { kind: string; parts: number[]; bits: number } | undefined {
  try {
    const [ip, bits] = range.includes('/')
      ? ipaddr.parseCIDR(range)
      : (() => {
          const ip = ipaddr.parse(range);
          return [ip, ip.kind() === 'ipv4' ? 32 : 128] as const;
        })();
    return { kind: ip.kind(), parts: ip.kind() === 'ipv4' ? (ip as ipaddr.IPv4).octets : (ip as ipaddr.IPv6).parts, bits };
  } catch {
    return undefined;
  }
}

const zone = fc.stringMatching(/^%[0-9a-zA-Z]{1,6}$/);
/** Addresses as sockets and proxies write them, in every spelling RFC 4291 allows, with and without zone ids, and text that is none. */
const addresses = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV6().map((address) => address.toUpperCase()),
  fc.tuple(fc.ipV6(), zone).map(([address, id]) => `${address}${id}`),
  fc.ipV4().map((address) => `::ffff:${address}`),
  fc.ipV4Extended(),
  fc.stringMatching(/^[0-9a-fA-F:.]{0,20}$/),
  fc.string(),
);

describe('IP addresses read by the URL parser', () => {
  it('reads every address as ipaddr.js read it: the same kind and parts, or none', () => {
    fc.assert(
      fc.property(addresses, (address) => {
        expect(ipOf(address) && { ...ipOf(address) }).toEqual(ipaddrOf(address));
      }),
      { numRuns: 5000 },
    );
  });

  it('names each IPv6 network as ipaddr.js named it (RFC 5952)', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.integer({ min: 1, max: 128 }), (address, bits) => {
        const ip = ipaddr.IPv6.parse(address);
        if (ip.isIPv4MappedAddress()) return;
        const network = new ipaddr.IPv6(ip.parts.map((part, i) => part & ((0xffff << (16 - Math.min(16, Math.max(0, bits - 16 * i)))) & 0xffff)));
        expect(anonymousSubject(address, bits)).toBe(`address:${network.toRFC5952String()}/${bits}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads every trustProxy range as ipaddr.js read it, and matches the same addresses', () => {
    const ranges = fc.oneof(
      fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 40 })).map(([ip, bits]) => `${ip}/${bits}`),
      fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 140 })).map(([ip, bits]) => `${ip}/${bits}`),
      fc.ipV4Extended(),
      fc.ipV6(),
      fc.string(),
    );
    fc.assert(
      fc.property(ranges, addresses, (range, address) => {
        const ours = rangeOf(range);
        const theirs = ipaddrRange(range);
        expect(ours && { ...ours[0], bits: ours[1] }).toEqual(theirs);
        const ip = ipOf(address);
        if (!ours || !ip) return;
        const network = ipaddr.parseCIDR(
          `${ipaddr.fromByteArray(ours[0].kind === 'ipv4' ? (ours[0].parts as number[]) : ours[0].parts.flatMap((p) => [p >> 8, p & 0xff])).toString()}/${ours[1]}`,
        );
        const them = ipaddr.fromByteArray(ip.kind === 'ipv4' ? (ip.parts as number[]) : ip.parts.flatMap((p) => [p >> 8, p & 0xff]));
        expect(inRange(ip, ...ours)).toBe(them.kind() === network[0].kind() && them.match(network));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads no zone id but letters and digits, and no text the URL parser would take for more than a host', () => {
    expect(ipv6Parts('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    for (const text of ['fe80::1%eth-0', '::1]@evil.example', '[::1]', '::1/64', '::1 ']) expect(ipv6Parts(text)).toBeUndefined();
    // Read as a URL's host, this text would be `[::2]` after a user name: not an address.
    expect(ipv6Parts('1::]@[::2')).toBeUndefined();
  });

  it("reads no IPv4 address with a trailing dot, which the URL parser takes for a host name's root", () => {
    expect(ipv4Parts('10.0.0.1')).toEqual([10, 0, 0, 1]);
    expect(ipv4Parts('10.0.0.1.')).toBeUndefined();
  });

  it('reads no range with anything after its prefix length', () => {
    expect(rangeOf('10.0.0.0/8')).toEqual([{ kind: 'ipv4', parts: [10, 0, 0, 0] }, 8]);
    for (const text of ['10.0.0.0/8x', '2001:db8::/32 ', '10.0.0.0/8/8']) expect(rangeOf(text)).toBeUndefined();
  });

  it('reads no range from a text with a line break before the range, as a list pasted into one entry would have', () => {
    // The range after the break is no reading of the whole text: trusting it would trust a range nobody wrote alone.
    for (const text of ['junk\n10.0.0.0/8', '192.0.2.1\n10.0.0.0/8', '\n2001:db8::/32']) expect(rangeOf(text)).toBeUndefined();
  });
});
