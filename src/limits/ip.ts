/** IP addresses and CIDR ranges read by the platform's URL parser, so the service worker bundles no IP library (issue #45; its share of the budget: BENCHMARKS.md, Findings). */

/**
 * A parsed IP address: an IPv4 address's 4 octets, or an IPv6 address's 8 16-bit parts.
 *
 * @example
 * const ip: Ip = { kind: 'ipv4', parts: [192, 0, 2, 7] };
 */
export interface Ip {
  readonly kind: 'ipv4' | 'ipv6';
  readonly parts: readonly number[];
}

/** What an IPv6 address may be written with (a zone id is taken off first): anything else could reach the URL parser as more than a host. */
const IPV6_TEXT = /^[0-9a-f:.]+$/i;
/** A zone id (`%eth0`), as ipaddr.js reads one: letters and digits only. */
const ZONE = /%[0-9a-z]+$/i;
/** The characters of IPv4 in any form the URL parser reads as one (`10.1`, `0x7f.1`, `010.0.0.1`, `2130706433`). */
const IPV4_TEXT = /^[0-9a-fx.]+$/i;
/** The URL parser's IPv4 serialization: always dotted four-part decimal. */
const DOTTED = /^\d+\.\d+\.\d+\.\d+$/;

/**
 * An IPv6 address (a zone id dropped, IPv4 written in its last 32 bits allowed) as its 8 parts,
 * or `undefined` for anything else.
 *
 * @example
 * ipv6Parts('2001:db8::1%eth0'); // [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]
 */
export function ipv6Parts(text: string): number[] | undefined {
  // `::a.b.c.d` (IPv4-compatible, deprecated by RFC 4291) is read as `::ffff:a.b.c.d`, as ipaddr.js reads it.
  const bare = text.replace(ZONE, '').replace(/^::(?=[^:]*\.[^:]*$)/, '::ffff:');
  if (!bare.includes(':') || !IPV6_TEXT.test(bare)) return undefined;
  const host = hostOf(`[${bare}]`);
  if (host === undefined) return undefined;
  // The URL parser writes the address back in RFC 5952 form: lowercase hex, one `::`, no IPv4 tail.
  const [head = '', tail] = host.slice(1, -1).split('::');
  const hex = (run: string) => (run === '' ? [] : run.split(':').map((part) => Number.parseInt(part, 16)));
  if (tail === undefined) return hex(head);
  const [before, after] = [hex(head), hex(tail)];
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * IPv4 in any form the URL parser reads (`192.0.2.7`, `10.1`, `0x7f.0.0.1`, `2130706433`) as its 4 octets,
 * or `undefined` for anything else.
 *
 * @example
 * ipv4Parts('10.1'); // [10, 0, 0, 1]
 */
export function ipv4Parts(text: string): number[] | undefined {
  // A trailing dot is a host name's root, which the URL parser allows and an address does not have.
  if (!IPV4_TEXT.test(text) || text.endsWith('.')) return undefined;
  const host = hostOf(text);
  return host !== undefined && DOTTED.test(host) ? host.split('.').map(Number) : undefined;
}

/**
 * An IPv6 address's canonical (RFC 5952) text.
 *
 * @example
 * ipv6Text([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]); // '2001:db8::1'
 */
export function ipv6Text(parts: readonly number[]): string {
  return hostOf(`[${parts.map((part) => part.toString(16)).join(':')}]`)!.slice(1, -1);
}

/**
 * An address or a CIDR range as `trustProxy` names one (`10.0.0.0/8`, `2001:db8::/32`, `127.0.0.1`),
 * as the network and its prefix length (an address is a range of one); `undefined` for anything else.
 *
 * @example
 * rangeOf('10.0.0.0/8'); // [{ kind: 'ipv4', parts: [10, 0, 0, 0] }, 8]
 */
export function rangeOf(text: string): readonly [Ip, number] | undefined {
  const cidr = /^(.+)\/(\d+)$/.exec(text);
  const address = cidr ? cidr[1]! : text;
  const v6 = ipv6Parts(address);
  const ip: Ip | undefined = v6 ? { kind: 'ipv6', parts: v6 } : mapIpv4(ipv4Parts(address));
  if (ip === undefined) return undefined;
  const most = ip.kind === 'ipv4' ? 32 : 128;
  const bits = cidr ? Number(cidr[2]) : most;
  return bits <= most ? [ip, bits] : undefined;
}

/**
 * Whether `ip` lies in the network's first `bits` bits (never, for an address of the other kind).
 *
 * @example
 * inRange({ kind: 'ipv4', parts: [10, 1, 2, 3] }, { kind: 'ipv4', parts: [10, 0, 0, 0] }, 8); // true
 */
export function inRange(ip: Ip, network: Ip, bits: number): boolean {
  if (ip.kind !== network.kind) return false;
  const width = ip.kind === 'ipv4' ? 8 : 16;
  return ip.parts.every((part, i) => {
    const within = Math.min(width, Math.max(0, bits - width * i));
    const mask = ((1 << width) - 1) ^ ((1 << (width - within)) - 1);
    return (part & mask) === (network.parts[i]! & mask);
  });
}

const mapIpv4 = (parts: number[] | undefined): Ip | undefined => parts && { kind: 'ipv4', parts };

/** The host the URL parser reads from `host`, in its serialization, or `undefined` if it reads none. */
function hostOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}
