/** The caller's network address, from whichever host runs the handler, and through the proxies the operator trusts. */
import ipaddr from 'ipaddr.js';
import { ipOf } from '../limits/address.ts';
import { requestForUser, type ApiRequest, type HeaderReader } from '../operations/request.ts';
import type { PetStoreContext } from './context.ts';
import type { Host } from './host.ts';

/** The `clientAddress` option: the client address of a request, read the operator's way. It is always handed a Request. */
export type CallerAddress = (request: Request, context: PetStoreContext) => string | undefined;

/** The client address of a request as the path reads it (a Request or a host's view of one), as the host or a trusted proxy reports it. */
export type AddressFinder = (request: ApiRequest, host: Host) => string | undefined;

/** The options {@link createCallerAddress} reads. */
export interface CallerAddressSettings {
  readonly clientAddress: CallerAddress | undefined;
  readonly trustProxy: number | readonly string[];
}

/**
 * The function that names a request's caller: the `clientAddress` option when given, handed a
 * Request (a host's view makes one first, so only this option pays for it); else the
 * peer the host reports; with `trustProxy`, the address the trusted proxies say they forwarded
 * for (RFC 7239 `Forwarded`, else `X-Forwarded-For`), walking back from the peer as long as each
 * hop is trusted. Bad `trustProxy` ranges throw a TypeError now, not on a request.
 */
export function createCallerAddress({ clientAddress, trustProxy }: CallerAddressSettings): AddressFinder {
  if (clientAddress) return (request, host) => clientAddress(requestForUser(request), host);
  const trusted = trustOf(trustProxy);
  if (!trusted) return peerOf;
  return (request, host) => {
    const peer = peerOf(request, host);
    // An untrusted peer is the caller, whatever it forwards: no header is read.
    if (peer === undefined || !trusted(peer, 0)) return peer;
    const { headers } = request;
    if (headers.get('forwarded') === null) return lastUntrusted(peer, headers.get('x-forwarded-for') ?? '', trusted);
    // Nearest first: the peer, then each address the proxies appended, right to left.
    const hops = [peer, ...forwardedFor(headers).reverse()];
    let hop = 0;
    while (hop < hops.length - 1 && trusted(hops[hop]!, hop)) hop++;
    return hops[hop];
  };
}

/**
 * The caller by `X-Forwarded-For` (`list`) behind the trusted `peer`: walking from the peer back
 * through the addresses the proxies appended, right to left, the first one not trusted, or the
 * farthest. The walk {@link forwardedFor} gives, read in place: splitting the header into arrays
 * cost each anonymous request of the command behind `--trust-proxy` (bench: the 401 row).
 */
function lastUntrusted(peer: string, list: string, trusted: (address: string, index: number) => boolean): string {
  let caller = peer;
  let index = 0;
  for (let end = list.length; end > 0; ) {
    const comma = list.lastIndexOf(',', end - 1);
    const address = list.slice(comma + 1, end).trim();
    end = comma;
    if (address === '') continue;
    if (!trusted(caller, index)) return caller;
    caller = address;
    index++;
  }
  return caller;
}

/** The peer the runtime reported. */
const peerOf = (_request: ApiRequest, host: Host): string | undefined => host.clientAddress;

/**
 * Whether the hop at `index` (0: the peer) is a proxy to believe, or `undefined` to believe none.
 *
 * @example
 * trustOf(['10.0.0.0/8'])?.('10.1.2.3', 0); // true
 */
export function trustOf(trustProxy: number | readonly string[]): ((address: string, index: number) => boolean) | undefined {
  if (typeof trustProxy === 'number') return trustProxy > 0 ? (_address, index) => index < trustProxy : undefined;
  if (trustProxy.length === 0) return undefined;
  const ranges = trustProxy.map((range) => {
    try {
      if (range.includes('/')) return ipaddr.parseCIDR(range);
      const ip = ipaddr.parse(range);
      return [ip, ip.kind() === 'ipv4' ? 32 : 128] as const;
    } catch {
      throw new TypeError(`trustProxy: "${range}" is not an IP address or CIDR range`);
    }
  });
  return (address) => {
    const ip = ipOf(address);
    return ip !== undefined && ranges.some(([network, bits]) => ip.kind() === network.kind() && ip.match(network, bits));
  };
}

/**
 * The `for=` addresses of `Forwarded` (ports and brackets dropped), else those of `X-Forwarded-For`, in header order.
 *
 * @example
 * forwardedFor(new Headers({ forwarded: 'for="[2001:db8::1]:4711", for=192.0.2.7' })); // ['2001:db8::1', '192.0.2.7']
 */
export function forwardedFor(headers: HeaderReader): string[] {
  const forwarded = headers.get('forwarded');
  if (forwarded !== null) {
    return [...forwarded.matchAll(/(?:^|[;,])\s*for=("[^"]*"|[^;,\s]*)/gi)].map(([, value]) => {
      const text = value!.replace(/^"|"$/g, '');
      // RFC 7239 §6: an IPv6 node is bracketed, and either kind may carry a port.
      return /^\[([^\]]+)\]/.exec(text)?.[1] ?? text.replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');
    });
  }
  return (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
