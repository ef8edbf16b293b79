/** CORS on a real server: off by default, preflights without a key, exposed headers. */
import { describe, expect, it } from 'vitest';
import { expectError, startServer } from '../helpers/server.ts';

const preflight = {
  method: 'OPTIONS',
  headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
};

describe('CORS', () => {
  it('is off by default: no Access-Control headers, even for an Origin', async () => {
    const server = await startServer();
    const response = await server.api('/pets', { headers: { origin: 'https://app.example' } });
    expect(response.status).toBe(200);
    expect([...response.headers.keys()].filter((h) => h.startsWith('access-control'))).toEqual([]);
  });

  it('answers a preflight without a key, with 204', async () => {
    const server = await startServer({ cors: '*' });
    const response = await fetch(`${server.url}/pets`, preflight);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Idempotency-Key, Petstore-Sandbox, baggage');
    expect(response.headers.get('access-control-max-age')).toBe('600');
  });

  it('answers a preflight outside the base path with the 404 every request there gets', async () => {
    for (const cors of [undefined, '*'] as const) {
      const server = await startServer({ cors });
      const origin = new URL(server.url).origin;
      await expectError(await fetch(`${origin}/elsewhere`, preflight), 404, 'not_found');
      await expectError(await fetch(`${origin}/`, preflight), 404, 'not_found');
    }
  });

  it('lets a script read the rate-limit, Link and deprecation headers of a response', async () => {
    const server = await startServer({ cors: ['https://app.example'] });
    const response = await server.api('/pets', { headers: { origin: 'https://app.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('vary')).toContain('Origin');
    const exposed = response.headers.get('access-control-expose-headers')!;
    for (const name of ['Link', 'Deprecation', 'Sunset', 'X-RateLimit-Remaining', 'Retry-After']) {
      expect(exposed).toContain(name);
    }
  });

  it('still requires the key on every request other than a preflight, and says so with CORS headers', async () => {
    const server = await startServer({ cors: '*' });
    const response = await fetch(`${server.url}/pets`, { headers: { origin: 'https://app.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    await expectError(response, 401, 'unauthorized');
  });

  it('sends no allow-origin to an origin outside the list', async () => {
    const server = await startServer({ cors: ['https://app.example'] });
    const response = await server.api('/pets', { headers: { origin: 'https://evil.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('vary')).toBe('Origin');
  });

  describe('private network access (a public page calling a server on loopback)', () => {
    const privatePreflight = (origin: string) => ({
      method: 'OPTIONS',
      headers: { ...preflight.headers, origin, 'access-control-request-private-network': 'true' },
    });

    it('answers a preflight asking for the private network with Access-Control-Allow-Private-Network: true when the origin is allowed', async () => {
      for (const cors of ['*', ['https://app.example']] as const) {
        const server = await startServer({ cors });
        const response = await fetch(`${server.url}/pets`, privatePreflight('https://app.example'));
        expect([response.status, response.headers.get('access-control-allow-origin'), response.headers.get('access-control-allow-private-network')]).toEqual([
          204,
          'https://app.example',
          'true',
        ]);
      }
    });

    it('grants it to no origin outside the list, to no preflight that did not ask, and to nothing with CORS off', async () => {
      const listed = await startServer({ cors: ['https://app.example'] });
      const outside = await fetch(`${listed.url}/pets`, privatePreflight('https://evil.example'));
      const unasked = await fetch(`${listed.url}/pets`, preflight);
      const off = await startServer();
      const offAnswer = await fetch(`${off.url}/pets`, privatePreflight('https://app.example'));
      for (const response of [outside, unasked, offAnswer]) expect(response.headers.get('access-control-allow-private-network')).toBeNull();
    });
  });
});
