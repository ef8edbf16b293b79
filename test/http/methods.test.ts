/** 405 with Allow, HEAD and OPTIONS on a real server. */
import { describe, expect, it } from 'vitest';
import { expectError, startServer } from '../helpers/server.ts';

describe('methods', () => {
  it.each([
    ['/pets', 'DELETE', 'GET, POST, HEAD, OPTIONS'],
    ['/pets', 'PUT', 'GET, POST, HEAD, OPTIONS'],
    ['/pets/1', 'POST', 'GET, HEAD, OPTIONS'],
    ['/pets/1', 'PATCH', 'GET, HEAD, OPTIONS'],
    ['/openapi.json', 'POST', 'GET, HEAD, OPTIONS'],
  ])('answers %s %s with 405 method_not_allowed and Allow: %s', async (path, method, allow) => {
    const server = await startServer();
    const response = await server.api(path, { method });
    expect(response.headers.get('allow')).toBe(allow);
    await expectError(response, 405, 'method_not_allowed');
  });

  it('answers OPTIONS with 204 and Allow when the key is valid', async () => {
    const server = await startServer();
    const response = await server.api('/pets', { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('answers OPTIONS without a key (not a CORS preflight) with 401', async () => {
    const server = await startServer();
    await expectError(await fetch(`${server.url}/pets`, { method: 'OPTIONS' }), 401, 'unauthorized');
  });

  it('answers HEAD on a missing pet with the 404 status and no body', async () => {
    const server = await startServer();
    const response = await server.api('/pets/9', { method: 'HEAD' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('');
  });
});
