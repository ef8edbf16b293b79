/** The caller's network address, from whichever host runs the handler, and through the proxies the operator trusts. */
import ipaddr from 'ipaddr.js';
import type { PetStoreContext, ResolvedOptions } from '../options.ts';
import { ipOf } from '../rate-limit/address.ts';

/** What the hosts we know put in the server context, read structurally so src/ imports no runtime. */
interface HostContext {
  /** node:http, Express, Koa, Fastify (through @whatwg-node/server's request listener). */
  readonly req?: { readonly socket?: { readonly remoteAddress?: string } };
  /** @hono/node-server's `c.env`, which Hono's `app.mount` passes on. */
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
  /** Deno.serve's handler info, when `Deno.serve(petstore)` calls the handler directly. */
  readonly remoteAddr?: { readonly hostname?: string };
  /** Bun's server, when `Bun.serve({ fetch: petstore.fetch })` calls the handler directly. */
  readonly requestIP?: (request: Request) => { readonly address?: string } | null;
}

/** The address of the peer that opened the connection, as the host reports it. */
function peerAddress(request: Request, context: PetStoreContext): string | undefined {
  if (context.clientAddress !== undefined) return context.clientAddress;
  const host = context as HostContext;
  return (
    askHost(context, (object) => (typeof object.requestIP === 'function' ? (object.requestIP(request)?.address ?? undefined) : undefined)) ??
    askHost(context, (object) => object.remoteAddr?.hostname) ??
    host.req?.socket?.remoteAddress ??
    host.incoming?.socket?.remoteAddress
  );
}

/**
 * The first answer `ask` gets from the context or an object up its prototype chain.
 * @whatwg-node hands the handler `Object.create(hostObject)`, and what the host put there only
 * works on the real object: Deno's `remoteAddr` getter reads a private field, and Bun's
 * `requestIP` insists on its own server as `this`.
 */
function askHost<T>(context: PetStoreContext, ask: (object: HostContext) => T | undefined): T | undefined {
  for (let object: object | null = context; object !== null && object !== Object.prototype; object = Object.getPrototypeOf(object)) {
    try {
      const answer = ask(object as HostContext);
      if (answer !== undefined) return answer;
    } catch {
      // A wrapper around the host's object: its prototype is the object itself.
    }
  }
  return undefined;
}

/**
 * The function that names a request's caller: the `clientAddress` option when given; else the
 * peer the host reports; with `trustProxy`, the address the trusted proxies say they forwarded
 * for (RFC 7239 `Forwarded`, else `X-Forwarded-For`), walking back from the peer as long as each
 * hop is trusted. Bad `trustProxy` ranges throw a TypeError now, not on a request.
 */
export function createCallerAddress(options: ResolvedOptions): (request: Request, context: PetStoreContext) => string | undefined {
  const { clientAddress, trustProxy } = options;
  if (clientAddress) return clientAddress;
  const trusted = trustOf(trustProxy);
  if (!trusted) return peerAddress;
  return (request, context) => {
    const peer = peerAddress(request, context);
    if (peer === undefined) return undefined;
    // Nearest first: the peer, then each address the proxies appended, right to left.
    const hops = [peer, ...forwardedFor(request.headers).reverse()];
    let hop = 0;
    while (hop < hops.length - 1 && trusted(hops[hop]!, hop)) hop++;
    return hops[hop];
  };
}

/** Whether the hop at `index` (0: the peer) is a proxy to believe, or `undefined` to believe none. */
function trustOf(trustProxy: number | readonly string[]): ((address: string, index: number) => boolean) | undefined {
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

/** The `for=` addresses of `Forwarded` (ports and brackets dropped), else those of `X-Forwarded-For`, in header order. */
function forwardedFor(headers: Headers): string[] {
  const forwarded = headers.get('forwarded');
  if (forwarded !== null) {
    return [...forwarded.matchAll(/(?:^|[;,])\s*for=("[^"]*"|[^;,\s]*)/gi)].map(([, value]) => {
      const text = value!.replace(/^"|"$/g, '');
      // RFC 7239 §6: an IPv6 node is bracketed, and either kind may carry a port.
      return /^\[([^\]]+)\]/.exec(text)?.[1] ?? text.replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');
    });
  }
  return (headers.get('x-forwarded-for') ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
}
