/**
 * The journal as HAR over HTTP on a real node:http server: GET /__admin/requests.har and a
 * sandbox's, valid under the HAR 1.2 JSON Schema, with the filters /requests takes, and no key,
 * selector or admin token in it. Every admin answer here is checked against the admin document the
 * server serves (test/helpers/admin-server.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Har } from '../../controls/index.ts';
import { adminServer, FREE, json, TOKEN } from '../helpers/admin-server.ts';
import { harProblems } from '../helpers/har-schema.ts';
import { expectError, KEY, postPet } from '../helpers/server.ts';

type Server = Awaited<ReturnType<typeof adminServer>>;

/** The HAR `path` (below /__admin) answers, after checking its status and headers. */
async function harAt(server: Server, path: string): Promise<Har> {
  const response = await server.admin(path);
  expect([response.status, response.headers.get('content-type'), response.headers.get('content-disposition')]).toEqual([
    200,
    'application/json',
    'attachment; filename="petstore-requests.har"',
  ]);
  return response.json();
}

/** Each entry as `METHOD path status`. */
const calls = (har: Har) => har.log.entries.map(({ request, response }) => `${request.method} ${new URL(request.url).pathname} ${response.status}`);

/** A sandbox opened over the admin API: its id, keys and selector. */
async function openSandbox(server: Server): Promise<{ id: string; keys: { free: string }; selector: string }> {
  const response = await server.admin('/sandboxes', { method: 'POST', body: '{}' });
  expect(response.status).toBe(201);
  return response.json();
}

describe('GET /__admin/requests.har', () => {
  it('answers the main world’s journal as HAR 1.2, valid under its JSON Schema, oldest first, with absolute URLs, bodies and answers', async () => {
    const server = await adminServer();
    const sandbox = await openSandbox(server);
    expect((await server.api('/pets?limit=2')).status).toBe(200);
    expect((await postPet(server, { name: 'Rex', categoryId: 1 })).status).toBe(201);
    expect((await server.api('/pets', { headers: { authorization: 'Bearer wrong-key-0123456789' } })).status).toBe(401);
    expect((await server.api('/pets/99')).status).toBe(404);
    expect((await server.api('/pets', { headers: { authorization: `Bearer ${sandbox.keys.free}` } })).status).toBe(200);

    const har = await harAt(server, '/requests.har');
    expect(harProblems(har)).toEqual([]);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('petstore-service');
    expect(calls(har)).toEqual(['GET /v1/pets 200', 'POST /v1/pets 201', 'GET /v1/pets 401', 'GET /v1/pets/99 404']);
    const [list, created, refused] = har.log.entries;
    expect(list!.request.url).toBe(`${server.url}/pets?limit=2`);
    expect(list!.request.queryString).toEqual([{ name: 'limit', value: '2' }]);
    expect(created!.request.postData).toEqual({ mimeType: 'application/json', text: '{"name":"Rex","categoryId":1}' });
    expect(created!.response.statusText).toBe('Created');
    expect(JSON.parse(created!.response.content.text!)).toMatchObject({ id: 1, name: 'Rex' });
    expect(created!.response.headers).toContainEqual({ name: 'content-type', value: 'application/json' });
    expect(refused!.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [redacted]' });
    for (const entry of har.log.entries) expect(Date.parse(entry.startedDateTime)).toBeLessThanOrEqual(Date.now());
  });

  it('answers a sandbox’s own journal at /__admin/sandboxes/{id}/requests.har, and a 404 for a sandbox that is not there', async () => {
    const server = await adminServer();
    const sandbox = await openSandbox(server);
    expect((await server.api('/pets', { headers: { authorization: `Bearer ${sandbox.keys.free}` } })).status).toBe(200);
    expect((await server.api('/pets/1')).status).toBe(404);
    const har = await harAt(server, `/sandboxes/${sandbox.id}/requests.har`);
    expect(harProblems(har)).toEqual([]);
    expect(calls(har)).toEqual(['GET /v1/pets 200']);
    await expectError(await server.admin('/sandboxes/000000000000/requests.har'), 404, 'not_found');
  });

  it('takes the filters /requests takes, naming the same exchanges, and refuses a bad one with the same 400', async () => {
    const server = await adminServer();
    expect((await server.api('/pets')).status).toBe(200);
    expect((await postPet(server, { name: 'Rex', categoryId: 1 })).status).toBe(201);
    expect((await postPet(server, { name: '' })).status).toBe(400);
    const { now } = await (await server.admin('/clock', json({ advanceMs: 60_000 }))).json();
    expect((await postPet(server, { name: 'Tom', categoryId: 2 })).status).toBe(201);
    const listed = async (query: string) =>
      ((await (await server.admin(`/requests?${query}`)).json()) as { method: string; path: string; status: number }[]).map(
        ({ method, path, status }) => `${method} ${path} ${status}`,
      );
    for (const query of ['', 'method=post', 'status=201', 'path=/v1/pets&method=GET', `since=${encodeURIComponent(now)}`, 'method=POST&limit=2']) {
      expect([query, calls(await harAt(server, `/requests.har?${query}`))]).toEqual([query, await listed(query)]);
    }
    for (const [query, field] of [
      ['status=abc', 'status'],
      ['limit=0', 'limit'],
      ['stauts=200', 'stauts'],
    ]) {
      const body = await expectError(await server.admin(`/requests.har?${query}`), 400, 'invalid_request');
      expect(body.details?.map((detail) => detail.field)).toEqual([field]);
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    const server = await adminServer();
    const response = await server.admin('/requests.har', { method: 'HEAD' });
    expect([response.status, response.headers.get('content-disposition'), await response.text()]).toEqual([
      200,
      'attachment; filename="petstore-requests.har"',
      '',
    ]);
  });

  it('holds no key, sandbox key, selector or admin token, however the client spelled them: each is [redacted]', async () => {
    const server = await adminServer();
    const sandbox = await openSandbox(server);
    // A key in the query, once as typed and once with its first letter percent-encoded (the HAR decodes its queryString).
    const encoded = `%${KEY.charCodeAt(0).toString(16)}${KEY.slice(1)}`;
    await server.api(`/pets?key=${KEY}&other=${encoded}`);
    await postPet(server, { name: FREE, categoryId: 1, note: TOKEN }, { headers: { 'x-token': TOKEN } });
    await server.api('/pets', { headers: { authorization: `Bearer ${FREE}`, 'petstore-sandbox': sandbox.selector } });
    await server.api(`/pets?sandbox=${sandbox.selector}`, { headers: { authorization: `Bearer ${sandbox.keys.free}` } });
    const main = await harAt(server, '/requests.har');
    const ofSandbox = await harAt(server, `/sandboxes/${sandbox.id}/requests.har`);
    expect([main.log.entries.length, ofSandbox.log.entries.length]).toEqual([2, 2]);
    const texts = JSON.stringify([main, ofSandbox]);
    for (const secret of [KEY, FREE, TOKEN, sandbox.keys.free, sandbox.selector]) expect(texts).not.toContain(secret);
    expect(main.log.entries[0]!.request.queryString).toEqual([
      { name: 'key', value: '[redacted]' },
      { name: 'other', value: '[redacted]' },
    ]);
    expect(ofSandbox.log.entries[0]!.request.headers).toContainEqual({ name: 'petstore-sandbox', value: '[redacted]' });
  });
});
