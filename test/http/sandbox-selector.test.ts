/**
 * A sandbox picked per request over real HTTP: the selector POST /__admin/sandboxes answers (each
 * admin answer checked against the admin document), sent as Petstore-Sandbox or in baggage, and what
 * the API answers with it, each API answer checked against the API document the same server serves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContractChecker, type Exchange } from '../contract/checker.ts';
import { adminServer, FREE } from '../helpers/admin-server.ts';
import { createTestPetStore, listen } from '../../testing/index.ts';
import { expectError, KEY, startServer, type TestServer } from '../helpers/server.ts';

/** The API answers of this test and the document of the server that gave them, checked after it: a status the document does not declare fails. */
const answers: { document: Promise<unknown>; exchanges: Exchange[] }[] = [];
afterEach(async () => {
  for (const { document, exchanges } of answers.splice(0)) {
    const check = createContractChecker((await document) as Record<string, unknown>);
    expect(
      exchanges.flatMap((exchange) => check(exchange)),
      'API answers that break the served API document',
    ).toEqual([]);
  }
});

/** A server with the admin API on, its `api` recording each answer for the document check, and `open(seed)` a sandbox opened over HTTP. */
async function serverWithSandboxes(options: Parameters<typeof adminServer>[0] = {}) {
  const server = await adminServer(options);
  const { admin } = server;
  const served = server.api;
  const exchanges: Exchange[] = [];
  // The document as this server serves it, fetched without a selector: the main world's.
  answers.push({ document: served('/openapi.json').then((response) => response.json()), exchanges });
  server.api = async (path: string, init: RequestInit = {}) => {
    const response = await served(path, init);
    const body = await response.clone().text();
    exchanges.push({ method: init.method ?? 'GET', path, status: response.status, headers: response.headers, body });
    return response;
  };
  const open = async (seed: unknown[] = []) => {
    const response = await admin('/sandboxes', { method: 'POST', body: JSON.stringify({ seed }) });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; keys: Record<string, string>; selector: string };
  };
  return { server: server as TestServer, admin, open };
}

const names = async (server: TestServer, headers: Record<string, string>) => {
  const response = await server.api('/pets', { headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }[]).map((pet) => pet.name);
};

describe('a sandbox selector over HTTP', () => {
  it('is answered by POST /__admin/sandboxes beside id and keys, and shown by GET of the sandbox and of the list', async () => {
    const { admin, open } = await serverWithSandboxes();
    const { id, selector } = await open();
    expect(selector).toMatch(/^pssel_[A-Za-z0-9_-]{32}$/);
    expect(await (await admin(`/sandboxes/${id}`)).json()).toMatchObject({ id, selector });
    expect(await (await admin('/sandboxes')).json()).toEqual([expect.objectContaining({ id, selector })]);
  });

  it('sends a request with a main-world key to its sandbox, by Petstore-Sandbox or by baggage among other members; the header wins', async () => {
    const { server, open } = await serverWithSandboxes();
    const a = await open([{ name: 'Ada', categoryId: 1 }]);
    const b = await open([{ name: 'Bo', categoryId: 1 }]);
    expect(await names(server, {})).toEqual([]);
    expect(await names(server, { 'petstore-sandbox': a.selector })).toEqual(['Ada']);
    expect(await names(server, { baggage: `session=9;p=1, petstore.sandbox = ${b.selector} ;ttl=5, x=y` })).toEqual(['Bo']);
    expect(await names(server, { 'petstore-sandbox': a.selector, baggage: `petstore.sandbox=${b.selector}` })).toEqual(['Ada']);
    expect(await names(server, { authorization: `Bearer ${b.keys.pro}`, baggage: `petstore.sandbox=${b.selector}` })).toEqual(['Bo']);
    expect(await names(server, { authorization: `Bearer ${KEY}` })).toEqual([]);
  });

  it('answers a selector of no open sandbox with a JSON 404 naming it, and a key of another sandbox with a 409 sandbox_conflict', async () => {
    const { server, admin, open } = await serverWithSandboxes();
    const a = await open();
    const b = await open();
    expect((await admin(`/sandboxes/${a.id}`, { method: 'DELETE' })).status).toBe(204);
    for (const headers of <Record<string, string>[]>[{ 'petstore-sandbox': a.selector }, { baggage: 'petstore.sandbox=pssel_forged' }]) {
      const body = await expectError(await server.api('/pets', { headers }), 404, 'not_found');
      expect(body.message).toMatch(/^No open sandbox has this selector/);
    }
    // The deprecated GET /pets/{petId} and the public document too: the 404 comes without their headers or the quota's.
    for (const path of ['/pets/1', '/openapi.json'])
      await expectError(await server.api(path, { headers: { 'petstore-sandbox': a.selector } }), 404, 'not_found');
    const conflict = await server.api('/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${b.keys.free}`, 'petstore-sandbox': (await open()).selector },
    });
    const body = await expectError(conflict, 409, 'sandbox_conflict');
    expect(body.message).toMatch(/key of one sandbox with the selector of another/);
  });

  it('lets a browser page send it across origins: a preflight allows Petstore-Sandbox and baggage, and its 404 and 409 carry the CORS headers', async () => {
    const { server, open } = await serverWithSandboxes({ cors: ['https://app.example'] });
    const origin = { origin: 'https://app.example' };
    const preflight = await server.api('/pets', {
      method: 'OPTIONS',
      headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'petstore-sandbox, baggage' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Idempotency-Key, Petstore-Sandbox, baggage');
    const stale = await server.api('/pets', { headers: { ...origin, 'petstore-sandbox': 'pssel_forged' } });
    expect([stale.status, stale.headers.get('access-control-allow-origin'), stale.headers.get('vary')]).toEqual([404, 'https://app.example', 'Origin']);
    const a = await open();
    const conflict = await server.api('/pets', { headers: { ...origin, authorization: `Bearer ${a.keys.free}`, 'petstore-sandbox': (await open()).selector } });
    expect([conflict.status, conflict.headers.get('access-control-allow-origin')]).toEqual([409, 'https://app.example']);
  });

  it('journals a request it picked in that sandbox, not the main world, with the selector written [redacted] in header and baggage', async () => {
    const { server, admin, open } = await serverWithSandboxes();
    const a = await open();
    await server.api('/pets?limit=1', { headers: { 'petstore-sandbox': a.selector, baggage: `userId=7, petstore.sandbox=${a.selector}` } });
    const journal = (await (await admin(`/sandboxes/${a.id}/requests`)).json()) as { path: string; requestHeaders: Record<string, string> }[];
    expect(journal).toHaveLength(1);
    expect(journal[0]!.requestHeaders).toMatchObject({ 'petstore-sandbox': '[redacted]', baggage: 'userId=7, petstore.sandbox=[redacted]' });
    expect(JSON.stringify(journal)).not.toContain(a.selector);
    // The main world's journal holds only the document this suite fetched, without a selector.
    const main = (await (await admin('/requests')).json()) as { path: string }[];
    expect(main.map((entry) => entry.path)).toEqual(['/v1/openapi.json']);
  });

  it('counts a main-world key\u2019s requests with a selector in the sandbox\u2019s quota, never in the main world\u2019s', async () => {
    const { server, admin, open } = await serverWithSandboxes();
    const a = await open();
    // Both clocks stand still, so no minute window ends between the requests.
    const still = { method: 'POST', body: JSON.stringify({ advanceMs: 0 }) };
    await admin('/clock', still);
    await admin(`/sandboxes/${a.id}/clock`, still);
    const remaining = async (headers: Record<string, string>) =>
      (await server.api('/pets', { headers: { authorization: `Bearer ${FREE}`, ...headers } })).headers.get('x-ratelimit-remaining');
    expect(await remaining({ 'petstore-sandbox': a.selector })).toBe('59');
    expect(await remaining({ 'petstore-sandbox': a.selector })).toBe('58');
    expect(await remaining({})).toBe('59');
  });

  it('picks a test kit sandbox behind listen() too: a server-side fetch with one key and the selector reaches it', async () => {
    const petstore = createTestPetStore();
    const sandbox = await petstore.sandbox({ seed: [{ name: 'Kit', categoryId: 1 }] });
    await using running = await listen(petstore);
    const list = (headers: Record<string, string>) =>
      fetch(`${running.url}/pets`, { headers: { authorization: `Bearer ${petstore.keys.free}`, ...headers } }).then((response) => response.json());
    expect(await list({ baggage: `petstore.sandbox=${sandbox.selector}` })).toEqual([expect.objectContaining({ name: 'Kit' })]);
    expect(await list({})).toEqual([]);
  });

  it('changes nothing without the admin API: both headers are ignored', async () => {
    const server = await startServer();
    const response = await server.api('/pets', { headers: { 'petstore-sandbox': 'pssel_forged', baggage: 'petstore.sandbox=pssel_forged' } });
    expect(response.status).toBe(200);
  });
});
