/** The edge: what arrived (request target, Host, header lines, peer) becomes the path and query the API routes on, or a 400. */
import type { ApiRequest } from '../operations/request.ts';
import { ApiError } from '../response/api-error.ts';
import type { Host } from './host.ts';

/** The part of a request the API routes on: never the Host, which only a client chose. */
export interface Target {
  /** The path under the mount prefix, dot segments resolved and percent-encoding kept. */
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
  /** The prefix the host mounted the API under (`/api`), or `''`: URLs the API writes start with it. */
  readonly mountPath: string;
}

/** `host [":" port]` (RFC 9110 §7.2): a reg-name or IPv4 address, or a bracketed IPv6 literal. May be empty. */
const HOST_PATTERN = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~]*)(?::([0-9]{0,5}))?$/;
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** Origin of the URLs the edge parses targets with; never part of anything sent to a client. */
const PARSE_ORIGIN = 'http://petstore.invalid';

/**
 * The target of `request`, or a 400 {@link ApiError}: a malformed or repeated Host, a target that
 * is not origin-form or absolute-form, or a refusal the runtime already made. Where the runtime
 * kept the raw target (`host.wire`), that is read, since a URL built from it pastes the Host in
 * front of the path. `OPTIONS *` yields `'*'` (asterisk-form).
 */
export function requestTarget(request: ApiRequest, host: Host): Target | '*' {
  if (host.refusal) throw host.refusal;
  // Elsewhere the runtime joined repeated lines with ", ": no valid Host, and no single bearer
  // credential, contains one, so a repeated Host fails below and a repeated Authorization is a 401.
  // A service worker's requests carry no Host at all; the runtime has already vouched for the URL then.
  const { wire } = host;
  const url = wire
    ? targetOf(request.method, wire.target, wire.host, wire.http11)
    : targetOf(request.method, request.url, request.headers.get('host') ?? undefined, false);
  if (url === '*') return url;
  const mountPath = mountPathOf(host);
  return { pathname: below(url.pathname, mountPath, host.mountStripped), searchParams: url.searchParams, mountPath };
}

/** The host's mount prefix without a trailing slash, `''` for none. */
const mountPathOf = (host: Host): string => (host.mountPath ? host.mountPath.replace(/\/+$/, '') : '');

/**
 * `pathname` below the host's mount prefix: Express has already cut its prefix off the path; a
 * prefix another host names may still be there, and is taken off.
 *
 * @example
 * pathBelowMount('/api/v1/pets', { mountPath: '/api' }); // '/v1/pets'
 */
export function pathBelowMount(pathname: string, host: Host): string {
  return below(pathname, mountPathOf(host), host.mountStripped);
}

function below(pathname: string, mountPath: string, stripped: boolean | undefined): string {
  if (stripped || mountPath === '') return pathname;
  return pathname === mountPath || pathname.startsWith(`${mountPath}/`) ? pathname.slice(mountPath.length) : pathname;
}

/** The part of a parsed target the API routes on: what a URL has, or what a plain target is split into. */
type ParsedTarget = Pick<URL, 'pathname' | 'searchParams'>;

/**
 * An origin-form target the URL parser would leave as it is: segments of unreserved characters
 * not starting with a dot (no dot segment, no percent-encoding to decode) and a printable query.
 */
const PLAIN_ORIGIN_FORM = /^((?:\/(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*)?)+)(?:\?([\x21-\x22\x24-\x7e]*))?$/;

function targetOf(method: string, target: string, host: string | undefined, hostRequired: boolean): ParsedTarget | '*' {
  // RFC 9112 §3.2: a missing (in HTTP/1.1) or invalid Host is a 400, whatever the target's form.
  if (host === undefined ? hostRequired : !isHost(host)) {
    throw badRequest(host === undefined ? 'HTTP/1.1 requests must carry a Host header.' : 'The Host header is not a valid host[:port].');
  }
  if (target === '*') {
    if (method === 'OPTIONS') return '*';
    throw badRequest('The request target "*" is only for OPTIONS.');
  }
  // Splitting a plain target is the cheaper path: parsing it as a URL costs several times as much (BENCHMARKS.md, Findings).
  const plain = PLAIN_ORIGIN_FORM.exec(target);
  if (plain) return { pathname: plain[1]!, searchParams: new URLSearchParams(plain[2]) };
  let url: URL;
  if (ABSOLUTE_FORM.test(target)) {
    // RFC 9112 §3.2.2: the authority in an absolute-form target wins over any Host field.
    url = parse(target);
    if (!/^https?:$/.test(url.protocol) || url.host === '') throw badRequest('The request target must be an http(s) URL or a path.');
  } else if (target.startsWith('/')) {
    // Prefixed with our own origin, so a target such as "//evil.example/v1" stays a path.
    url = parse(`${PARSE_ORIGIN}${target}`);
  } else {
    throw badRequest('The request target must be a path such as /v1/pets.');
  }
  return url;
}

function parse(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw badRequest('The request target is not a valid URL.');
  }
}

/** A valid `host[:port]`, its port (if any) at most 65535: one match for both. */
function isHost(host: string): boolean {
  const match = HOST_PATTERN.exec(host);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}

/** A 400 that closes the connection: what follows a request the edge cannot read is not trusted either. */
export function badRequest(message: string): ApiError {
  return new ApiError({ status: 400, code: 'invalid_request', message, headers: { Connection: 'close' } });
}
