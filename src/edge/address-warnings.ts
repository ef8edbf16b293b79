/** What the store can tell is wrong with an anonymous caller's address but cannot refuse: each told once, with its code. */
import { UNKNOWN_ADDRESS } from '../limits/address.ts';
import type { Subject } from '../limits/limit-store.ts';
import type { ApiRequest } from '../operations/request.ts';
import { DOCS_URL, type Warnings } from '../response/warning.ts';
import { trustOf, type CallerAddressSettings, type ProxyHeader } from './caller-address.ts';
import type { Host } from './host.ts';

/**
 * How many anonymous callers the proxy checks look at. A proxy in front sets its header on every
 * request it forwards, so the first callers tell (express-rate-limit checks only the first
 * request); after them the two header lookups are not made at all.
 */
const PROXY_CHECKS = 100;

const SHARED = 'so every anonymous caller without one shares one rate-limit bucket, and one of them can get all the others 429';
const MOUNTING = `${DOCS_URL}/mounting.md#what-your-server-may-tell-the-pet-store`;
const PROXIES = `${DOCS_URL}/limits.md#behind-a-proxy`;

const HOST_GAVE_NONE =
  `A caller without a valid key came with no address: the host passed none, ${SHARED}. Pass the caller's address as ` +
  `clientAddress in the context (petstore.fetch(request, { clientAddress }), as the Deno, Bun and Hono recipes do), or set the clientAddress option. See ${MOUNTING}`;
const OPTION_GAVE_NONE = `The clientAddress option returned no address for a caller without a valid key, ${SHARED}. Make it return the caller's IP address (is the header it reads missing?). See ${PROXIES}`;
const OPTION_NOT_IP =
  `The clientAddress option returned text that is not one IP address for a caller without a valid key (not shown: it may come from a client), ${SHARED}. ` +
  `Return one IPv4 or IPv6 address, not a list or a host name. See ${PROXIES}`;
const UNTRUSTED_HEADER =
  'A caller without a valid key came with Forwarded or X-Forwarded-For, but trustProxy is not set: the header is ignored and the peer is the address. ' +
  `Behind a proxy, set trustProxy, or every caller shares the proxy's bucket; with no proxy in front, a client sent it and this can be ignored. See ${PROXIES}`;
const UNTRUSTED_PEER =
  'A caller without a valid key came with Forwarded or X-Forwarded-For from a peer outside the trustProxy ranges: the header is ignored and the peer is the address. ' +
  `Add your proxy's address to trustProxy, or close the way around it. See ${PROXIES}`;
/** The header's name as people write it, in the message that names it. */
const HEADER_NAMES: Record<ProxyHeader, string> = { 'x-forwarded-for': 'X-Forwarded-For', forwarded: 'Forwarded' };
/** PETSTORE_NO_PROXY_HEADER's message when `header` is the one believed: the other may be what the proxy sets. */
function noHeader(header: ProxyHeader): string {
  const other: ProxyHeader = header === 'forwarded' ? 'x-forwarded-for' : 'forwarded';
  return (
    `A caller without a valid key came from a trusted proxy without ${HEADER_NAMES[header]} (the one header believed, proxyHeader "${header}"), so its address is the proxy's: ` +
    `if the proxy does not set it, every caller shares its bucket. Have the proxy set ${HEADER_NAMES[header]}, or, if it sets ${HEADER_NAMES[other]} ` +
    `instead, set proxyHeader to "${other}"; with no proxy in front, leave trustProxy out. See ${PROXIES}`
  );
}

/** Looks at one anonymous caller: its request, its host, the address the limits step found and the subject it made of it. */
export type AddressCheck = (request: ApiRequest, host: Host, address: string | undefined, subject: Subject) => void;

/** What {@link createAddressWarnings} reads: the caller-address options and where to tell. */
export interface AddressWarningSettings extends CallerAddressSettings {
  readonly warnings: Warnings;
}

/**
 * The checks of an anonymous caller's address, each told once through `warnings`:
 *
 * - `PETSTORE_NO_CLIENT_ADDRESS`: no address (the host passed none, or the `clientAddress` option
 *   returned none), so every such caller shares one bucket. A call in process (`host.inProcess`)
 *   has no peer to name, and is not a host's mistake.
 * - `PETSTORE_CLIENT_ADDRESS_NOT_IP`: the `clientAddress` option returned text that is no IP address.
 * - `PETSTORE_PROXY_HEADER_IGNORED`: a forwarding header that trustProxy does not let count.
 * - `PETSTORE_NO_PROXY_HEADER`: a trusted proxy that forwarded no `proxyHeader`.
 *
 * The first two cost nothing unless the subject is already `address:unknown`; the proxy checks
 * look at the first {@link PROXY_CHECKS} callers only.
 *
 * @example
 * const check = createAddressWarnings({ clientAddress: undefined, trustProxy: 0, warnings: createWarnings(undefined) });
 * check(request, {}, undefined, 'address:unknown'); // stderr: petstore-service: warning PETSTORE_NO_CLIENT_ADDRESS: …
 */
export function createAddressWarnings({ clientAddress, trustProxy, proxyHeader = 'x-forwarded-for', warnings }: AddressWarningSettings): AddressCheck {
  const trusted = trustOf(trustProxy);
  const NO_HEADER = noHeader(proxyHeader);
  // The clientAddress option reads the caller's address its own way: forwarding headers are its business then.
  let proxyChecks = clientAddress ? 0 : PROXY_CHECKS;
  return (request, host, address, subject) => {
    if (subject === UNKNOWN_ADDRESS) {
      if (address === undefined) {
        if (!host.inProcess) warnings.warn('PETSTORE_NO_CLIENT_ADDRESS', clientAddress ? OPTION_GAVE_NONE : HOST_GAVE_NONE);
      } else if (clientAddress) {
        // A host's own text is its choice (a service worker names its one caller 'service-worker').
        warnings.warn('PETSTORE_CLIENT_ADDRESS_NOT_IP', OPTION_NOT_IP);
      }
      return;
    }
    if (proxyChecks === 0) return;
    proxyChecks--;
    const { headers } = request;
    if (trusted && host.clientAddress !== undefined && trusted(host.clientAddress, 0)) {
      // The other header may well be there, as the client wrote it: only the one believed tells.
      if (!headers.has(proxyHeader)) warnings.warn('PETSTORE_NO_PROXY_HEADER', NO_HEADER);
      return;
    }
    const forwarded = headers.has('forwarded') || headers.has('x-forwarded-for');
    if (!trusted) {
      if (forwarded) warnings.warn('PETSTORE_PROXY_HEADER_IGNORED', UNTRUSTED_HEADER);
    } else if (forwarded) {
      warnings.warn('PETSTORE_PROXY_HEADER_IGNORED', UNTRUSTED_PEER);
    }
  };
}
