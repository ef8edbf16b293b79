/**
 * The admin API on a real node:http server: off by default, behind its token, each control over
 * HTTP, never limited or faulted itself, and network faults as a client on the wire meets them.
 * Every admin response a test here receives is checked, after the test, against the admin
 * document the same server serves.
 */
import { describe, expect, it } from 'vitest';
import { adminServer, json, TOKEN } from '../helpers/admin-server.ts';
import { expectError, postPet, startServer } from '../helpers/server.ts';

describe('the admin API', () => {
  it('is a 404 when the admin option is off', async () => {
    const server = await startServer();
    await expectError(await fetch(`${new URL(server.url).origin}/__admin/pets`, { headers: { authorization: `Bearer ${TOKEN}` } }), 404, 'not_found');
  });

  it('answers 401 with a Bearer challenge without the token or with a wrong one', async () => {
    const server = await adminServer();
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }] as Record<string, string>[]) {
      const response = await server.adminWithout('/pets', { headers });
      await expectError(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore-admin"');
    }
  });

  it('seeds pets validated like POST /pets, lists them, and a bad item is a 400 naming its 0-based index and field with nothing stored', async () => {
    const server = await adminServer();
    const seeded = await server.admin(
      '/seed',
      json([
        { name: 'Rex', categoryId: 1 },
        { name: 'Tom', categoryId: 2, status: 'sold' },
      ]),
    );
    expect(seeded.status).toBe(201);
    expect(await seeded.json()).toEqual([
      { id: 1, name: 'Rex', categoryId: 1 },
      { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
    ]);
    const bad = await expectError(
      await server.admin(
        '/seed',
        json([
          { name: 'Kit', categoryId: 3 },
          { name: '', categoryId: 1 },
        ]),
      ),
      400,
      'invalid_request',
    );
    expect(bad).toMatchObject({ message: 'Invalid body: 1.name must not be empty.', details: [{ field: '1.name', message: 'must not be empty' }] });
    const notPets = await expectError(await server.admin('/seed', json([{ name: 'Kit', categoryId: 3 }, 5, { name: 7 }])), 400, 'invalid_request');
    expect(notPets).toMatchObject({
      message: 'Invalid body: 1 must be an object; 2.name must be a string; 2.categoryId is required.',
      details: [
        { field: '1', message: 'must be an object' },
        { field: '2.name', message: 'must be a string' },
        { field: '2.categoryId', message: 'is required' },
      ],
    });
    const notAList = await expectError(await server.admin('/seed', json({ name: 'Rex' })), 400, 'invalid_request');
    expect(notAList.details).toEqual([
      { field: 'body', message: 'must be a JSON array of pets, each like a POST /pets body, or {"generate": {"count": 25, "seed": 7}}' },
    ]);
    expect(await (await server.admin('/pets')).json()).toHaveLength(2);
    expect((await (await server.api('/pets')).json()).map((pet: { name: string }) => pet.name)).toEqual(['Rex', 'Tom']);
  });

  it('injects faults by JSON, lists them pending, refuses a bad one with a 400 naming the field, and DELETE clears them', async () => {
    const server = await adminServer();
    const injected = await server.admin('/faults', json({ status: 503, method: 'POST', path: '/v1/pets', times: 2, retryAfterSeconds: 9 }));
    expect(injected.status).toBe(201);
    const { id } = await injected.json();
    expect(await (await server.admin('/faults')).json()).toEqual([
      { id, status: 503, method: 'POST', path: '/v1/pets', times: 2, retryAfterSeconds: 9, left: 2 },
    ]);
    const failed = await postPet(server, { name: 'Rex', categoryId: 1 });
    await expectError(failed, 503, 'service_unavailable');
    expect(failed.headers.get('retry-after')).toBe('9');
    const bad = await expectError(await server.admin('/faults', json({ status: 200 })), 400, 'invalid_request');
    expect(bad).toMatchObject({
      message: 'Invalid body: status must be an integer from 400 to 599.',
      details: [{ field: 'status', message: 'must be an integer from 400 to 599' }],
    });
    expect((await server.admin('/faults', { method: 'DELETE' })).status).toBe(204);
    expect(await (await server.admin('/faults')).json()).toEqual([]);
    expect((await postPet(server, { name: 'Rex', categoryId: 1 })).status).toBe(201);
  });

  it('removes one fault by its id with DELETE /__admin/faults/{faultId}, the others left, and answers a JSON 404 for an id no pending rule has', async () => {
    const server = await adminServer();
    const first = (await (await server.admin('/faults', json({ status: 503, path: '/v1/pets', times: 'always' }))).json()).id;
    const second = (await (await server.admin('/faults', json({ status: 500, path: '/v1/pets/1', times: 'always' }))).json()).id;
    expect((await server.admin(`/faults/${first}`, { method: 'DELETE' })).status).toBe(204);
    expect((await (await server.admin('/faults')).json()).map((fault: { id: string }) => fault.id)).toEqual([second]);
    expect((await postPet(server, { name: 'Rex', categoryId: 1 })).status).toBe(201);
    const gone = await expectError(await server.admin(`/faults/${first}`, { method: 'DELETE' }), 404, 'not_found');
    expect(gone.message).toBe(`There is no pending fault "${first}": it was used up, removed or never injected; GET /__admin/faults lists them.`);
  });

  it('refuses faults that could break the instance or could never work, with a 400 naming each field', async () => {
    const server = await adminServer();
    const refusal = async (rule: object) => (await expectError(await server.admin('/faults', json(rule)), 400, 'invalid_request')).details;
    expect(await refusal({ delayMs: 2 ** 31 })).toEqual([{ field: 'delayMs', message: 'must be a whole number of milliseconds from 0 to 2147483647' }]);
    expect(await refusal({ status: 429, retryAfterSeconds: 1e9 })).toEqual([
      { field: 'retryAfterSeconds', message: 'must be a whole number of seconds from 1 to 86400' },
    ]);
    expect(await refusal({ status: 503, method: 'GET /v1/pets' })).toEqual([{ field: 'method', message: 'must be an HTTP method like "POST"' }]);
    expect(await refusal({ status: 503, stauts: 500 })).toEqual([{ field: 'stauts', message: 'is not a field of a fault' }]);
    expect(await refusal({ status: 503, network: 'reset' })).toEqual([
      { field: 'status', message: 'must be left out with network (a network fault sends no status)' },
    ]);
    expect(await refusal({ method: 'GET' })).toEqual([
      { field: 'body', message: 'status, network or delayMs must be given: a fault with none of them does nothing' },
    ]);
    expect(await refusal({ network: 'hang', afterHandling: true })).toEqual([
      { field: 'afterHandling', message: 'must be used with status or network "reset"' },
    ]);
    expect(await refusal({ status: 503, path: 'v1/pets' })).toEqual([
      { field: 'path', message: 'must start with "/", like "/v1/pets": a path without it matches no request' },
    ]);
    expect(await refusal({ status: 503, times: 2 ** 53 })).toEqual([
      { field: 'times', message: 'must be a positive integer or "always" (at most 9007199254740991)' },
    ]);
    expect(await refusal({ status: 503, times: 0, probability: 2 })).toEqual([
      { field: 'times', message: 'must be a positive integer or "always" (at most 9007199254740991)' },
      { field: 'probability', message: 'must be a number from 0 to 1' },
    ]);
    expect(await (await server.admin('/faults')).json()).toEqual([]);
    const accepted = await server.admin(
      '/faults',
      json({ delayMs: 2 ** 31 - 1, method: 'PATCH', status: 429, retryAfterSeconds: 86_400, code: 'key_banned', message: 'Banned.' }),
    );
    expect(accepted.status).toBe(201);
  });

  it('answers a body that is not JSON with 415 and one over the size limit with 413, as its document says', async () => {
    const server = await adminServer({ maxBodyBytes: 1024 });
    await expectError(
      await server.admin('/faults', { method: 'POST', body: 'status=503', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'unsupported_media_type',
    );
    await expectError(
      await server.admin('/seed', json(Array.from({ length: 100 }, (_, i) => ({ name: `pet ${i}`, categoryId: i })))),
      413,
      'payload_too_large',
    );
    await expectError(await server.admin('/clock', { method: 'POST', body: '{"advanceMs":' }), 400, 'invalid_request');
  });

  it('is never faulted, delayed or rate limited itself, and keeps itself out of the journal', async () => {
    const server = await adminServer();
    await server.admin('/faults', json({ status: 500, times: 'always' }));
    await server.admin('/faults', json({ delayMs: 60_000, times: 'always' }));
    for (let i = 0; i < 100; i++) expect((await server.admin('/pets')).status).toBe(200);
    expect(await (await server.admin('/requests')).json()).toEqual([]);
  });

  it('journals API requests with method, path, query, status, ms and time, the key redacted; DELETE clears it', async () => {
    const server = await adminServer();
    await server.admin('/clock', json({ set: '2026-06-01T12:00:00Z' }));
    await server.api('/pets?limit=2');
    await postPet(server, { name: 'Rex', categoryId: 1 });
    const journal = await (await server.admin('/requests')).json();
    expect(journal).toMatchObject([
      {
        method: 'GET',
        path: '/v1/pets',
        query: 'limit=2',
        status: 200,
        time: '2026-06-01T12:00:00.000Z',
        requestHeaders: { authorization: 'Bearer [redacted]' },
      },
      {
        method: 'POST',
        path: '/v1/pets',
        query: '',
        status: 201,
        requestBody: '{"name":"Rex","categoryId":1}',
        responseBody: '{"id":1,"name":"Rex","categoryId":1}',
      },
    ]);
    expect(journal[0].ms).toBeGreaterThan(0);
    expect(JSON.stringify(journal)).not.toContain('test-key-0123456789');
    expect((await server.admin('/requests', { method: 'DELETE' })).status).toBe(204);
    expect(await (await server.admin('/requests')).json()).toEqual([]);
  });

  it('resets everything: 20 creates held by a delay end with JSON 503s and store nothing; pets, ids, quotas, faults and the journal start over', async () => {
    const server = await adminServer();
    await server.admin('/seed', json([{ name: 'Rex', categoryId: 1 }]));
    await server.admin('/faults', json({ delayMs: 60_000, method: 'POST', times: 20 }));
    const creates = Array.from({ length: 20 }, (_, i) => postPet(server, { name: `ghost ${i}`, categoryId: 1 }));
    // Until the delay has taken all 20 (the rule is no longer pending).
    while ((await (await server.admin('/faults')).json()).length > 0);
    expect((await server.admin('/reset', { method: 'POST' })).status).toBe(204);
    const responses = await Promise.all(creates);
    for (const response of responses) await expectError(response, 503, 'service_unavailable');
    expect(await (await server.admin('/pets')).json()).toEqual([]);
    expect(await (await server.admin('/requests')).json()).toEqual([]);
    expect(await (await postPet(server, { name: 'first', categoryId: 1 })).json()).toMatchObject({ id: 1 });
  });

  it('resets the connection of a request a network fault names: the client sees a network error, not an answer', async () => {
    const server = await adminServer();
    await server.admin('/faults', json({ network: 'reset', method: 'POST' }));
    await expect(postPet(server, { name: 'Rex', categoryId: 1 })).rejects.toThrow(TypeError);
    expect((await postPet(server, { name: 'Rex', categoryId: 1 })).status).toBe(201);
    expect((await (await server.admin('/requests')).json()).map((r: { status: number }) => r.status)).toEqual([0, 201]);
  });

  it('hangs a request until the client gives up', async () => {
    const server = await adminServer();
    await server.admin('/faults', json({ network: 'hang' }));
    const controller = new AbortController();
    const hanging = server.api('/pets', { signal: controller.signal });
    while ((await (await server.admin('/faults')).json()).length > 0);
    controller.abort();
    await expect(hanging).rejects.toMatchObject({ name: 'AbortError' });
    expect((await server.api('/pets')).status).toBe(200);
  });

  it('serves its own OpenAPI document, 405 with Allow for a wrong method, and 404 for an unknown admin path', async () => {
    const server = await adminServer();
    const document = await (await server.admin('/openapi.json')).json();
    expect(document).toMatchObject({ openapi: '3.1.0', info: { title: 'Pet Store admin API' } });
    expect(Object.keys(document.paths)).toEqual([
      '/__admin/reset',
      '/__admin/seed',
      '/__admin/pets',
      '/__admin/clock',
      '/__admin/faults',
      '/__admin/faults/{faultId}',
      '/__admin/requests',
      '/__admin/requests.har',
      '/__admin/requests/count',
      '/__admin/verify',
      '/__admin/openapi.json',
      '/__admin/sandboxes',
      '/__admin/sandboxes/{id}',
      ...['reset', 'seed', 'pets', 'clock', 'faults', 'faults/{faultId}', 'requests', 'requests.har', 'requests/count', 'verify'].map(
        (path) => `/__admin/sandboxes/{id}/${path}`,
      ),
      // The server's own, not a world's: the dashboard's page and files, and every world's exchanges live.
      ...['', '/', '/dashboard.js', '/dashboard.css', '/favicon.svg', '/requests/events'].map((path) => `/__admin${path}`),
    ]);
    expect(document.servers).toEqual([{ url: '/' }]);
    const wrong = await server.admin('/reset', { method: 'GET' });
    await expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('POST, OPTIONS');
    await expectError(await server.admin('/nothing'), 404, 'not_found');
  });

  it('answers HEAD as GET without the body and OPTIONS with Allow on every path, as its document declares', async () => {
    const server = await adminServer();
    const document = await (await server.admin('/openapi.json')).json();
    const { id } = await (await server.admin('/sandboxes', json({}))).json();
    for (const [template, item] of Object.entries<Record<string, unknown>>(document.paths)) {
      const path = template.replace('{id}', id);
      const options = await server.admin(path.slice('/__admin'.length), { method: 'OPTIONS' });
      expect([path, options.status, options.headers.get('allow')]).toEqual([path, 204, expect.any(String)]);
      expect([template, 'options', item.options]).toEqual([template, 'options', expect.anything()]);
      if (!item.get) continue;
      expect([template, 'head', item.head]).toEqual([template, 'head', expect.anything()]);
      // Its success as declared: 200, or the 308 of /__admin, not followed.
      const success = Number(Object.keys((item.get as { responses: object }).responses)[0]);
      const head = await server.admin(path.slice('/__admin'.length), { method: 'HEAD', redirect: 'manual' });
      expect([path, head.status, await head.text()]).toEqual([path, success, '']);
    }
  });
});
