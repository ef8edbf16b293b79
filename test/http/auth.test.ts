/** Bearer authentication on a real server: challenges, schemes, and what anonymous callers learn. */
import { describe, expect, it } from 'vitest';
import { expectError, KEY, startServer } from '../helpers/server.ts';

describe('authentication', () => {
  it('answers 401 unauthorized with a Bearer challenge when no key is sent', async () => {
    const server = await startServer();
    const response = await fetch(`${server.url}/pets`);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    await expectError(response, 401, 'unauthorized');
  });

  it('adds error="invalid_token" when the key is unknown', async () => {
    const server = await startServer();
    const response = await server.api('/pets', { headers: { authorization: 'Bearer not-a-key' } });
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore", error="invalid_token"');
    const body = await expectError(response, 401, 'unauthorized');
    expect(body.message).not.toContain('not-a-key');
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts the scheme written "%s"', async (scheme) => {
    const server = await startServer();
    expect((await server.api('/pets', { headers: { authorization: `${scheme} ${KEY}` } })).status).toBe(200);
  });

  it.each([`Basic ${KEY}`, KEY, 'Bearer', `Bearer ${KEY} extra`, `Bearer ${KEY}x`, `Bearer ${KEY.slice(0, -1)}`])(
    'answers 401 for the Authorization header "%s"',
    async (authorization) => {
      const server = await startServer();
      await expectError(await server.api('/pets', { headers: { authorization } }), 401, 'unauthorized');
    },
  );

  it('answers 401 to an anonymous caller on every path under the base, unknown ones included', async () => {
    const server = await startServer();
    for (const [path, method] of [
      ['/pets', 'POST'],
      ['/pets/1', 'GET'],
      ['/pets', 'DELETE'],
      ['/does-not-exist', 'GET'],
      ['', 'GET'],
    ]) {
      await expectError(await fetch(`${server.url}${path}`, { method }), 401, 'unauthorized');
    }
  });

  it('answers 404 not_found on an unknown path once the key is valid', async () => {
    const server = await startServer();
    for (const path of ['/does-not-exist', '', '/', '/pets/', '/pets/1/owner']) {
      await expectError(await server.api(path), 404, 'not_found');
    }
  });

  it('answers 404 not_found outside the base path, without asking for a key', async () => {
    const server = await startServer();
    const origin = new URL(server.url).origin;
    for (const path of ['/', '/pets', '/v2/pets', '/v1pets']) {
      await expectError(await fetch(`${origin}${path}`), 404, 'not_found');
    }
  });

  it('serves the OpenAPI document without a key', async () => {
    const server = await startServer();
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect((await response.json()).openapi).toBe('3.1.0');
  });

  it('accepts each configured key and serves a custom basePath', async () => {
    const server = await startServer({ basePath: '/api/petstore', apiKeys: { alpha: 'free', beta: 'pro' } });
    expect(server.url).toMatch(/\/api\/petstore$/);
    for (const key of ['alpha', 'beta']) {
      expect((await fetch(`${server.url}/pets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    }
    await expectError(await fetch(`${server.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } }), 401, 'unauthorized');
  });
});
