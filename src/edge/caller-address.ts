/** The caller's network address, from whichever host runs the handler, and through the proxies the operator trusts. */
import { CANONICAL_IPV4, ipOf } from '../limits/address.ts';
import { inRange, rangeOf } from '../limits/ip.ts';
import { requestForUser, type ApiRequest } from '../operations/request.ts';
import type { PetStoreContext } from './context.ts';
import type { Host } from './host.ts';

/** The `clientAddress` option: the client address of a request, read the operator's way. It is always handed a Request. */
export type CallerAddress = (request: Request, context: PetStoreContext) => string | undefined;

/** The client address of a request as the path reads it (a Request or a host's view of one), as the host or a trusted proxy reports it. */
export type AddressFinder = (request: ApiRequest, host: Host) => string | undefined;

/**
 * The one header the trusted proxies' word is read from (the `proxyHeader` option): `X-Forwarded-For`,
 * or RFC 7239 `Forwarded`. Never both: a proxy that appends to one passes the other on as the client
 * wrote it (nginx's usual configuration does so with `Forwarded`).
 *
 * @example
 * const header: ProxyHeader = 'forwarded';
 */
export type ProxyHeader = 'x-forwarded-for' | 'forwarded';

/**
 * The values of {@link ProxyHeader}, the default first.
 *
 * @example
 * PROXY_HEADERS.includes('forwarded'); // true
 */
export const PROXY_HEADERS: readonly ProxyHeader[] = ['x-forwarded-for', 'forwarded'];

/** The options {@link createCallerAddress} reads. */
export interface CallerAddressSettings {
  readonly clientAddress: CallerAddress | undefined;
  readonly trustProxy: number | readonly string[];
  /** The header to believe the trusted proxies in; default `x-forwarded-for`. */
  readonly proxyHeader?: ProxyHeader;
}

/**
 * Throws a TypeError naming the headers there are unless `proxyHeader` is one of {@link PROXY_HEADERS}.
 *
 * @example
 * assertProxyHeader('x-real-ip'); // TypeError: proxyHeader must be "x-forwarded-for" or "forwarded", got "x-real-ip"
 */
export function assertProxyHeader(proxyHeader: unknown): asserts proxyHeader is ProxyHeader {
  if (!PROXY_HEADERS.includes(proxyHeader as ProxyHeader)) {
    throw new TypeError(`proxyHeader must be ${PROXY_HEADERS.map((name) => `"${name}"`).join(' or ')}, got ${JSON.stringify(String(proxyHeader))}`);
  }
}

/**
 * The function that names a request's caller: the `clientAddress` option when given, handed a
 * Request (a host's view makes one first, so only this option pays for it); else the peer the
 * host reports; with `trustProxy`, the address the trusted proxies say they forwarded for, in
 * the one `proxyHeader` (the other is not read), walking back from the peer as long as each hop
 * is trusted and is an IP address. Bad `trustProxy` ranges or a `proxyHeader` it does not know
 * throw a TypeError now, not on a request.
 *
 * @example
 * const callerOf = createCallerAddress({ clientAddress: undefined, trustProxy: 1 });
 * callerOf(new Request('http://x/', { headers: { 'x-forwarded-for': '6.6.6.6, 192.0.2.1' } }), { clientAddress: '10.0.0.1' }); // '192.0.2.1'
 */
export function createCallerAddress({ clientAddress, trustProxy, proxyHeader = 'x-forwarded-for' }: CallerAddressSettings): AddressFinder {
  assertProxyHeader(proxyHeader);
  if (clientAddress) return (request, host) => clientAddress(requestForUser(request), host);
  const trusted = trustOf(trustProxy);
  if (!trusted) return peerOf;
  const addressOf = proxyHeader === 'forwarded' ? forwardedAddress : hopAddress;
  return (request, host) => {
    const peer = peerOf(request, host);
    // An untrusted peer is the caller, whatever it forwards: no header is read.
    if (peer === undefined || !trusted(peer, 0)) return peer;
    return lastBelieved(peer, request.headers.get(proxyHeader) ?? '', trusted, addressOf);
  };
}

/**
 * The caller by the proxy header's `list` behind the trusted `peer`: walking from the peer back
 * through the hops the proxies appended, right to left, the first address not trusted, or the
 * farthest. A hop that is no IP address ends the walk, and the last address believed is the
 * caller: whatever is left of it may be anyone's writing. Read in place: splitting the header
 * into arrays cost each anonymous request of the command behind `--trust-proxy` (BENCHMARKS.md, HTTP: the 401 row).
 */
function lastBelieved(
  peer: string,
  list: string,
  trusted: (address: string, index: number) => boolean,
  addressOf: (hop: string) => string | undefined,
): string {
  let caller = peer;
  let index = 0;
  for (let end = list.length; end > 0; ) {
    const comma = list.lastIndexOf(',', end - 1);
    const hop = list.slice(comma + 1, end).trim();
    end = comma;
    // No proxy appends an empty hop; a client's `a,,b` is skipped rather than believed.
    if (hop === '') continue;
    if (!trusted(caller, index)) return caller;
    const address = addressOf(hop);
    if (address === undefined) return caller;
    caller = address;
    index++;
  }
  return caller;
}

/**
 * The IP address of one hop as proxies write it (`192.0.2.7`, `2001:db8::1`, and with a port,
 * `192.0.2.7:4711` or `[2001:db8::1]:4711`), or `undefined` for anything else: a host name,
 * `unknown`, an obfuscated `_hidden`, text.
 */
function hopAddress(hop: string): string | undefined {
  if (CANONICAL_IPV4.test(hop)) return hop;
  // RFC 7239 §6: an IPv6 node is bracketed, and either kind may carry a port.
  const address = hop.startsWith('[') ? /^\[([^\]]+)\](?::[0-9]{1,5})?$/.exec(hop)?.[1] : hop.replace(/^([0-9.]+):[0-9]{1,5}$/, '$1');
  return address !== undefined && ipOf(address) !== undefined ? address : undefined;
}

/** The address of one `Forwarded` element's `for=` (quoted or not), or `undefined` if it has none that is an IP address. */
function forwardedAddress(element: string): string | undefined {
  for (const pair of element.split(';')) {
    const equals = pair.indexOf('=');
    if (pair.slice(0, equals).trim().toLowerCase() !== 'for') continue;
    const value = pair.slice(equals + 1).trim();
    return hopAddress(value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
  }
  return undefined;
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
    const parsed = typeof range === 'string' ? rangeOf(range) : undefined;
    if (parsed === undefined) throw new TypeError(`trustProxy: "${range}" is not an IP address or CIDR range`);
    return parsed;
  });
  return (address) => {
    const ip = ipOf(address);
    return ip !== undefined && ranges.some(([network, bits]) => inRange(ip, network, bits));
  };
}
