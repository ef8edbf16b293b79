/** CORS: which browser origins may call, and what they may send and read. */
import type { ApiRequest } from '../operations/request.ts';

/** Headers a browser script may read from our responses. */
const EXPOSED_HEADERS = [
  'Link',
  'Deprecation',
  'Sunset',
  'Allow',
  'WWW-Authenticate',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
];

/**
 * What an allowed origin is told besides itself, the same on every request: what
 * @whatwg-node/server's CORS helper made of these settings. It read only a request's `Origin`,
 * but wanted a whole Request, which the path may not have (src/operations/request.ts).
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
  // Idempotency-Key for a safe retry; Petstore-Sandbox and baggage pick a fake backend's sandbox.
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Petstore-Sandbox, baggage',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
  'Access-Control-Max-Age': '600',
};

/**
 * Chromium's Private Network Access: a page on a public origin asks, in its preflight, to reach
 * a server on a private or loopback address (`Access-Control-Request-Private-Network: true`), and
 * is let through only if the answer grants it. Granted to every origin the `cors` option allows,
 * wherever the server listens: the operator who listed it (or gave `*`) chose that page, and the
 * API holds nothing a page can use without a key it holds itself (no cookies, no ambient
 * credentials). docs/security.md says so.
 */
const PRIVATE_NETWORK = { 'Access-Control-Allow-Private-Network': 'true' };

/** True for a CORS preflight: answered without a key, since browsers never send one on it. */
export function isPreflight(request: ApiRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.has('origin') && request.headers.has('access-control-request-method');
}

/** The CORS headers for this request, or none when CORS is off or the request has no `Origin`. */
export function corsHeaders(request: ApiRequest, cors: '*' | readonly string[] | undefined): Record<string, string> {
  if (cors === undefined) return {};
  const origin = request.headers.get('origin');
  // Caches must key on Origin: whether CORS headers are sent depends on it.
  const vary = { Vary: 'Origin' };
  // An origin outside the list gets no CORS headers at all, so the browser blocks it.
  if (origin === null || (cors !== '*' && !cors.includes(origin))) return vary;
  const headers = { 'Access-Control-Allow-Origin': origin, ...ALLOWED, ...vary };
  return asksPrivateNetwork(request) ? Object.assign(headers, PRIVATE_NETWORK) : headers;
}

/** A preflight of a page asking to reach this server on a private network (Chromium's Private Network Access). */
function asksPrivateNetwork(request: ApiRequest): boolean {
  return isPreflight(request) && request.headers.get('access-control-request-private-network')?.trim().toLowerCase() === 'true';
}
