/** The rate-limit subject of a caller without a valid key: its IPv4 address, or its IPv6 network. */
import { type Ip, ipv6Parts, ipv6Text } from './ip.ts';
import type { Subject } from './limit-store.ts';

/**
 * The one subject of every anonymous caller whose address is missing or no IP address.
 *
 * @example
 * anonymousSubject(undefined, 56) === UNKNOWN_ADDRESS; // true
 */
export const UNKNOWN_ADDRESS: Subject = 'address:unknown';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/**
 * An IPv4 address in its canonical text (dotted four-part decimal, no leading zeros): tested
 * before any parse, since it is what sockets and proxies report nearly always.
 *
 * @example
 * CANONICAL_IPV4.test('192.0.2.7'); // true
 */
export const CANONICAL_IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/**
 * The subject an anonymous caller is limited by.
 *
 * - IPv4 (`1.2.3.4`, only in dotted four-part decimal) and IPv4-mapped IPv6 (`::ffff:1.2.3.4`,
 *   as a dual-stack socket reports IPv4 peers) give `address:1.2.3.4`: one caller, one budget.
 * - IPv6 gives the network of its first `ipv6Subnet` bits in canonical (RFC 5952) form, e.g.
 *   `address:2001:db8:1:ff00::/56`: a single site usually owns a /56 or a /64, so limiting
 *   per /128 would hand it billions of budgets. A zone id (`%eth0`) is dropped.
 * - No address, or text that is no IP address, gives `address:unknown`: one bucket shared by
 *   every such caller, rather than one per distinct string an attacker might send.
 *
 * @param address The client address, as the runtime or the `clientAddress` option reports it.
 * @param ipv6Subnet Prefix length (1 to 128) grouping IPv6 callers; anything else throws a `TypeError`.
 * @example
 * anonymousSubject('::ffff:192.0.2.7', 56);          // 'address:192.0.2.7'
 * anonymousSubject('2001:db8:1:ff12:3::7%eth0', 56);  // 'address:2001:db8:1:ff00::/56'
 * anonymousSubject(undefined, 56);                    // 'address:unknown'
 */
export function anonymousSubject(address: string | undefined, ipv6Subnet: number): Subject {
  assertIpv6Subnet(ipv6Subnet);
  // A dotted quad without leading zeros is already the canonical text: no parsing (BENCHMARKS.md, HTTP: the 401 row).
  if (address !== undefined && CANONICAL_IPV4.test(address)) return subject(address);
  const ip = address === undefined ? undefined : ipOf(address);
  if (ip === undefined) return UNKNOWN_ADDRESS;
  if (ip.kind === 'ipv4') return subject(ip.parts.join('.'));
  const network = ip.parts.map((part, i) => part & partMask(i, ipv6Subnet));
  return subject(`${ipv6Text(network)}/${ipv6Subnet}`);
}

/**
 * An address as a socket reports it, parsed: IPv4 only in dotted four-part decimal (the URL
 * parser would also read `127.1` or octal `010.0.0.1`, which no socket reports), an IPv4-mapped
 * IPv6 address as its IPv4 address; `undefined` for anything else.
 *
 * @example
 * ipOf('::ffff:192.0.2.7')?.parts.join('.'); // '192.0.2.7'
 */
export function ipOf(address: string): Ip | undefined {
  if (CANONICAL_IPV4.test(address)) return { kind: 'ipv4', parts: address.split('.').map(Number) };
  const parts = ipv6Parts(address);
  if (parts === undefined) return undefined;
  // ::ffff:a.b.c.d, as a dual-stack socket reports an IPv4 peer.
  const mapped = parts.slice(0, 5).every((part) => part === 0) && parts[5] === 0xffff;
  return mapped ? { kind: 'ipv4', parts: [parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff] } : { kind: 'ipv6', parts };
}

/**
 * Throws a TypeError unless `ipv6Subnet` is a prefix length, 1 to 128.
 *
 * @example
 * assertIpv6Subnet(56); // fine
 */
export function assertIpv6Subnet(ipv6Subnet: number): void {
  if (!Number.isSafeInteger(ipv6Subnet) || ipv6Subnet < 1 || ipv6Subnet > 128) {
    throw new TypeError('ipv6Subnet must be an integer prefix length from 1 to 128');
  }
}

/** The bits of 16-bit part `index` that lie within the first `prefix` bits of the address. */
function partMask(index: number, prefix: number): number {
  const bits = Math.min(16, Math.max(0, prefix - 16 * index));
  return (0xffff << (16 - bits)) & 0xffff;
}

/** `address:<text>`, built by join(): a `+` could keep both parts alive as long as the store keeps the subject (measured: test/flood). */
function subject(text: string): Subject {
  return ['address', text].join(':') as Subject;
}
