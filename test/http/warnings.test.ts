/** What the store can tell is wrong but cannot refuse, behind real servers: each told once per store, with its PETSTORE_ code (issue #27). */
import { createServer, type Server } from 'node:http';
import { serve as honoServe } from '@hono/node-server';
import { Hono } from 'hono';
import { mount } from 'hono/mount';
import { describe, expect, it } from 'vitest';
import { createPetStore, PetStoreWarning, type PetStoreOptions } from '../../compose/index.ts';
import { listenForTest, startServer } from '../helpers/server.ts';

const KEY = 'warnings-key-0123456789';
const authed = { authorization: `Bearer ${KEY}` };

/** A store whose onError collects what it is told; `told()` is the codes of the warnings so far. */
function watched(options: PetStoreOptions = {}) {
  const seen: unknown[] = [];
  const petstore = createPetStore({ apiKeys: { [KEY]: 'free' }, ...options, onError: (error) => seen.push(error) });
  const warnings = () => seen.filter((error): error is PetStoreWarning => error instanceof PetStoreWarning);
  return { petstore, seen, warnings, told: () => warnings().map((warning) => warning.code) };
}

/** Hono on @hono/node-server, with `route` under /api/*; the origin. */
async function hono(route: (app: Hono) => void): Promise<string> {
  const app = new Hono();
  route(app);
  return listenForTest(honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server);
}

describe('a host that passes no caller address', () => {
  it('Hono forwarding c.req.raw: keyed callers need no address, keyless ones get their 401 and PETSTORE_NO_CLIENT_ADDRESS is told once, naming clientAddress and the recipe', async () => {
    const { petstore, seen, told } = watched();
    const origin = await hono((app) => app.all('/api/*', (c) => petstore.fetch(c.req.raw, { mountPath: '/api' })));
    expect((await fetch(`${origin}/api/v1/pets`, { headers: authed })).status).toBe(200);
    expect(seen).toEqual([]);
    for (let i = 0; i < 3; i++) expect((await fetch(`${origin}/api/v1/pets`)).status).toBe(401);
    expect(told()).toEqual(['PETSTORE_NO_CLIENT_ADDRESS']);
    const [warning] = seen as PetStoreWarning[];
    expect(warning).toBeInstanceOf(Error);
    expect(warning!.name).toBe('PetStoreWarning');
    expect(warning!.message).toMatch(/clientAddress/);
    expect(warning!.message).toContain('docs/mounting.md#what-your-server-may-tell-the-pet-store');
  });

  it("Hono's recipe (mount with c.env) passes the address, so only the c.req.raw route is told", async () => {
    const { petstore, told } = watched();
    const origin = await hono((app) => {
      app.all(
        '/api/*',
        mount(petstore.fetch, (c) => [c.env, { mountPath: '/api' }]),
      );
      app.all('/raw/*', (c) => petstore.fetch(c.req.raw, { mountPath: '/raw' }));
    });
    const response = await fetch(`${origin}/api/v1/pets`);
    expect(response.status).toBe(401);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(told()).toEqual([]);
    await fetch(`${origin}/raw/v1/pets`);
    expect(told()).toEqual(['PETSTORE_NO_CLIENT_ADDRESS']);
  });
});

describe('a mount prefix neither stripped nor declared', () => {
  it('node:http routing /api/ to the store without mountPath: a 404 naming mountPath, and PETSTORE_PREFIX_NOT_DECLARED told once', async () => {
    const { petstore, told, warnings } = watched();
    const origin = await listenForTest(createServer((req, res) => (req.url?.startsWith('/api/') ? petstore(req, res) : res.writeHead(404).end())));
    for (const path of ['/api/v1/pets', '/api/v1/pets/1']) {
      const response = await fetch(`${origin}${path}`, { headers: authed });
      expect(response.status).toBe(404);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('not_found');
      expect(body.message).toMatch(/^This API is served under \/v1\/\. .*mountPath/);
      expect(body.message).not.toContain('/api/v1');
    }
    expect(told()).toEqual(['PETSTORE_PREFIX_NOT_DECLARED']);
    expect(warnings()[0]!.message).toMatch(/mountPath/);
  });

  it('with basePath "", the prefix in front of a route is told the same way', async () => {
    const { petstore, told } = watched({ basePath: '' });
    const origin = await listenForTest(createServer((req, res) => void petstore(req, res)));
    const response = await fetch(`${origin}/api/pets`, { headers: authed });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { message: string }).message).toMatch(/^There is no such path in this API\. .*mountPath/);
    expect(told()).toEqual(['PETSTORE_PREFIX_NOT_DECLARED']);
  });

  it('a path that is none of the API is a plain 404 and told nothing; only a path of the API behind a prefix is', async () => {
    const { petstore, told } = watched();
    const origin = await listenForTest(createServer((req, res) => void petstore(req, res)));
    for (const path of ['/api/elsewhere', '/elsewhere', '/v2/pets', '/v1/pets/1/owner']) {
      const response = await fetch(`${origin}${path}`, { headers: authed });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { message: string }).message).not.toMatch(/mountPath/);
    }
    expect(told()).toEqual([]);
    expect((await fetch(`${origin}/api/healthz`)).status).toBe(404);
    expect(told()).toEqual(['PETSTORE_PREFIX_NOT_DECLARED']);
  });

  it('a prefix is looked for in the first four segments only, so no path of many slashes costs more than four route matches', async () => {
    const { petstore, told } = watched();
    const origin = await listenForTest(createServer((req, res) => void petstore(req, res)));
    expect((await fetch(`${origin}/a/b/c/d/e/v1/pets`, { headers: authed })).status).toBe(404);
    expect((await fetch(`${origin}${'/x'.repeat(2000)}/v1/pets`, { headers: authed })).status).toBe(404);
    expect(told()).toEqual([]);
    expect((await fetch(`${origin}/a/b/c/d/v1/pets`, { headers: authed })).status).toBe(404);
    expect(told()).toEqual(['PETSTORE_PREFIX_NOT_DECLARED']);
  });

  it('the same prefix declared as mountPath serves the API and is told nothing, where the undeclared one is', async () => {
    const declared = watched();
    const undeclared = watched();
    const origin = await listenForTest(
      createServer((req, res) => void (req.headers['x-declared'] ? declared.petstore(req, res, { mountPath: '/api' }) : undeclared.petstore(req, res))),
    );
    expect((await fetch(`${origin}/api/v1/pets`, { headers: { ...authed, 'x-declared': '1' } })).status).toBe(200);
    expect((await fetch(`${origin}/api/v1/pets`, { headers: authed })).status).toBe(404);
    expect([declared.told(), undeclared.told()]).toEqual([[], ['PETSTORE_PREFIX_NOT_DECLARED']]);
  });
});

describe('forwarding headers and trustProxy', () => {
  const keyless = (url: string, headers: Record<string, string> = {}) => fetch(`${url}/pets`, { headers });
  const codes = (errors: unknown[]) => errors.map((error) => (error as PetStoreWarning).code);

  it('X-Forwarded-For without trustProxy: ignored as before, and PETSTORE_PROXY_HEADER_IGNORED told once', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ onError: (error) => errors.push(error) });
    expect((await keyless(server.url, { 'x-forwarded-for': '203.0.113.7' })).headers.get('x-ratelimit-remaining')).toBe('59');
    expect((await keyless(server.url, { forwarded: 'for=203.0.113.8' })).headers.get('x-ratelimit-remaining')).toBe('58');
    expect(codes(errors)).toEqual(['PETSTORE_PROXY_HEADER_IGNORED']);
    expect((errors[0] as Error).message).toMatch(/trustProxy is not set/);
  });

  it('a trusted proxy that forwards the caller is told nothing; one that forwards no header is PETSTORE_NO_PROXY_HEADER, since it would be every caller', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ trustProxy: ['127.0.0.1'], onError: (error) => errors.push(error) });
    expect((await keyless(server.url, { 'x-forwarded-for': '203.0.113.7' })).headers.get('x-ratelimit-remaining')).toBe('59');
    expect((await keyless(server.url, { 'x-forwarded-for': '203.0.113.8' })).headers.get('x-ratelimit-remaining')).toBe('59');
    expect(errors).toEqual([]);
    await keyless(server.url);
    await keyless(server.url);
    expect(codes(errors)).toEqual(['PETSTORE_NO_PROXY_HEADER']);
  });

  it('trustProxy 1 and a request with no forwarding header: PETSTORE_NO_PROXY_HEADER', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ trustProxy: 1, onError: (error) => errors.push(error) });
    await keyless(server.url);
    expect(codes(errors)).toEqual(['PETSTORE_NO_PROXY_HEADER']);
  });

  it('a trusted proxy that sets only the header not chosen: PETSTORE_NO_PROXY_HEADER names proxyHeader as the fix, since that header is not read', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ trustProxy: 1, onError: (error) => errors.push(error) });
    expect((await keyless(server.url, { forwarded: 'for=203.0.113.7' })).headers.get('x-ratelimit-remaining')).toBe('59');
    expect((await keyless(server.url, { forwarded: 'for=203.0.113.8' })).headers.get('x-ratelimit-remaining')).toBe('58');
    expect(codes(errors)).toEqual(['PETSTORE_NO_PROXY_HEADER']);
    expect((errors[0] as Error).message).toMatch(/without X-Forwarded-For .* set proxyHeader to "forwarded"/);
  });

  it('trustProxy ranges that miss the peer: its X-Forwarded-For is ignored, and PETSTORE_PROXY_HEADER_IGNORED says the peer is outside them', async () => {
    const errors: unknown[] = [];
    const server = await startServer({ trustProxy: ['10.0.0.0/8'], onError: (error) => errors.push(error) });
    await keyless(server.url);
    expect(errors).toEqual([]);
    await keyless(server.url, { 'x-forwarded-for': '203.0.113.7' });
    expect(codes(errors)).toEqual(['PETSTORE_PROXY_HEADER_IGNORED']);
    expect((errors[0] as Error).message).toMatch(/outside the trustProxy ranges/);
  });
});
