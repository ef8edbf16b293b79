/** CORS: which browser origins may call, using @whatwg-node/server's header logic. */
import { getCORSHeadersByRequestAndOptions } from '@whatwg-node/server';

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

/** True for a CORS preflight: answered without a key, since browsers never send one on it. */
export function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('origin') && request.headers.has('access-control-request-method');
}

/** The CORS headers for this request, or none when CORS is off or the request has no `Origin`. */
export function corsHeaders(request: Request, cors: '*' | readonly string[] | undefined): Record<string, string> {
  if (cors === undefined) return {};
  const origin = request.headers.get('origin');
  // Caches must key on Origin: whether CORS headers are sent depends on it.
  const vary = { Vary: 'Origin' };
  // An origin outside the list gets no CORS headers at all, so the browser blocks it.
  if (origin === null || (cors !== '*' && !cors.includes(origin))) return vary;
  const headers = getCORSHeadersByRequestAndOptions(request, {
    origin: cors === '*' ? '*' : [...cors],
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
  });
  return Object.assign({}, headers, vary);
}
