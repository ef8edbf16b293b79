/** corsHeaders: what an allowed origin is told, and the private-network grant only for a preflight that asks for it. */
import { describe, expect, it } from 'vitest';
import { corsHeaders } from './cors.ts';

const APP = 'https://app.example';
const request = (method: string, headers: Record<string, string>) => new Request('http://x/v1/pets', { method, headers });
const preflight = (extra: Record<string, string> = {}) => request('OPTIONS', { origin: APP, 'access-control-request-method': 'POST', ...extra });
const grant = (headers: Record<string, string>) => headers['Access-Control-Allow-Private-Network'];

describe('corsHeaders and Private Network Access', () => {
  it('grants the private network to a preflight of an allowed origin that asks for it, in any case of true', () => {
    for (const cors of ['*', [APP]] as const) {
      expect(grant(corsHeaders(preflight({ 'access-control-request-private-network': 'true' }), cors))).toBe('true');
      expect(grant(corsHeaders(preflight({ 'access-control-request-private-network': ' TRUE ' }), cors))).toBe('true');
    }
  });

  it('grants nothing to a preflight that does not ask, asks with another value, comes from another origin, or when CORS is off', () => {
    const asking = { 'access-control-request-private-network': 'true' };
    expect(grant(corsHeaders(preflight(), [APP]))).toBeUndefined();
    expect(grant(corsHeaders(preflight({ 'access-control-request-private-network': 'false' }), [APP]))).toBeUndefined();
    expect(corsHeaders(request('OPTIONS', { origin: 'https://evil.example', 'access-control-request-method': 'POST', ...asking }), [APP])).toEqual({
      Vary: 'Origin',
    });
    expect(corsHeaders(preflight(asking), undefined)).toEqual({});
    // Not a preflight (no Access-Control-Request-Method): a request, which the grant is not for.
    expect(grant(corsHeaders(request('GET', { origin: APP, ...asking }), [APP]))).toBeUndefined();
  });
});
