/**
 * The admin API on a real node:http server: off by default, behind its token, each control over
 * HTTP, never limited or faulted itself, and network faults as a client on the wire meets them.
 * Every admin response a test here receives is checked, after the test, against the admin
 * document the same server serves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { createContractChecker, type Exchange } from '../contract/checker.ts';
import { expectError, KEY, postPet, startServer, type TestServer } from '../helpers/server.ts';

const TOKEN = 'admin-token-0123456789';
const FREE = 'free-key-0123456789';

/** A running admin server and the admin responses its test received, with their bodies read. */
const servers: { running: RunningPetStore; exchanges: Promise<Exchange | undefined>[] }[] = [];
afterEach(async () => {
  const started = servers.splice(0);
  try {
    for (const { running, exchanges } of started) {
      const document = await (await fetch(`${new URL(running.url).origin}/__admin/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
      const check = createContractChecker(document);
      const problems = (await Promise.all(exchanges)).flatMap((exchange) => (exchange ? check(exchange) : []));
      expect(problems, 'admin responses that break the served admin document').toEqual([]);
    }
  } finally {
    await Promise.all(started.map(({ running }) => running.close()));
  }
});

/**
 * A server with the admin API on, `api` as the test servers have it, `admin(path)` a fetch of
 * `/__admin<path>` with the token and `adminWithout(path)` one without it. Not one of the
 * contract-checked test servers: the faults it injects answer outside the API's document on purpose.
 */
async function adminServer(options: { maxBodyBytes?: number } = {}) {
  const running = await serve({
    port: 0,
    onError: () => {},
    admin: { token: TOKEN },
    apiKeys: { [FREE]: 'free', [KEY]: { perMinute: 1_000_000, perDay: 1_000_000 } },
    ...options,
  });
  const exchanges: Promise<Exchange | undefined>[] = [];
  servers.push({ running, exchanges });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${running.url}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, ...(init.headers as Record<string, string>) } });
  const server: TestServer = Object.assign(running, { api });
  const origin = new URL(server.url).origin;
  const adminWithout = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${origin}/__admin${path}`, init);
    const { status, headers } = response;
    const method = init.method ?? 'GET';
    exchanges.push(
      response
        .clone()
        .text()
        .then(
          (body) => ({ method, path: `/__admin${path}`, status, headers, body }),
          () => undefined,
        ),
    );
    return response;
  };
  const admin = (path: string, init: RequestInit = {}) =>
    adminWithout(path, {
      ...init,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    });
  return Object.assign(server, { admin, adminWithout });
}

const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

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
    const notAList = await expectError(await server.admin('/seed', json({ name: 'Rex' })), 400, 'invalid_request');
    expect(notAList.details).toEqual([{ field: 'body', message: 'must be a JSON array of pets, each like a POST /pets body' }]);
    expect(await (await server.admin('/pets')).json()).toHaveLength(2);
    expect((await (await server.api('/pets')).json()).map((pet: { name: string }) => pet.name)).toEqual(['Rex', 'Tom']);
  });

  it('moves the clock: a free key limited for the minute is admitted again after advancing 60 s, and set takes an ISO date', async () => {
    const server = await adminServer();
    const set = await server.admin('/clock', json({ set: '2026-06-01T12:00:00Z' }));
    expect(await set.json()).toEqual({ now: '2026-06-01T12:00:00.000Z' });
    const asFree = { headers: { authorization: `Bearer ${FREE}` } };
    for (let i = 0; i < 60; i++) expect((await server.api('/pets', asFree)).status).toBe(200);
    await expectError(await server.api('/pets', asFree), 429, 'rate_limited');
    expect(await (await server.admin('/clock', json({ advanceMs: 60_000 }))).json()).toEqual({ now: '2026-06-01T12:01:00.000Z' });
    expect((await server.api('/pets', asFree)).status).toBe(200);
    expect(await (await server.admin('/clock')).json()).toEqual({ now: '2026-06-01T12:01:00.000Z' });
    const backwards = await expectError(await server.admin('/clock', json({ advanceMs: -1 })), 400, 'invalid_request');
    expect(backwards.details).toEqual([{ field: 'advanceMs', message: 'must be a number of milliseconds, 0 or more' }]);
    const soon = await expectError(await server.admin('/clock', json({ set: 'soon' })), 400, 'invalid_request');
    expect(soon.details).toEqual([{ field: 'set', message: 'must be an ISO date-time like "2026-01-01T00:00:00Z"' }]);
    expect(await (await server.admin('/clock')).json()).toEqual({ now: '2026-06-01T12:01:00.000Z' });
  });

  it('refuses to move the clock past the Date range with a 400 naming the range, and the store keeps answering', async () => {
    const server = await adminServer();
    await server.admin('/clock', json({ set: '2026-06-01T12:00:00Z' }));
    const past = await expectError(await server.admin('/clock', json({ advanceMs: 8_640_000_000_000_000 })), 400, 'invalid_request');
    expect(past.details).toEqual([
      {
        field: 'advanceMs',
        message: `must keep the clock within the Date range (8640000000000000 ms either side of 1970, up to +275760-09-13T00:00:00.000Z): at most ${8.64e15 - Date.parse('2026-06-01T12:00:00Z')} ms from now`,
      },
    ]);
    expect(await (await server.admin('/clock')).json()).toEqual({ now: '2026-06-01T12:00:00.000Z' });
    expect((await server.api('/pets')).status).toBe(200);
    // As far as the range goes, and no further.
    expect(await (await server.admin('/clock', json({ advanceMs: 8.64e15 - Date.parse('2026-06-01T12:00:00Z') }))).json()).toEqual({
      now: '+275760-09-13T00:00:00.000Z',
    });
    await expectError(await server.admin('/clock', json({ advanceMs: 1 })), 400, 'invalid_request');
    expect((await server.api('/pets')).status).toBe(200);
  });

  it('takes exactly one of advanceMs and set, and no other field', async () => {
    const server = await adminServer();
    const message = 'must be {"advanceMs": <ms>} or {"set": "<ISO date>"}';
    const both = await expectError(await server.admin('/clock', json({ advanceMs: 1, set: '2026-06-01T12:00:00Z' })), 400, 'invalid_request');
    expect(both.details).toEqual([{ field: 'body', message }]);
    const neither = await expectError(await server.admin('/clock', json({})), 400, 'invalid_request');
    expect(neither.details).toEqual([{ field: 'body', message }]);
    const other = await expectError(await server.admin('/clock', json({ advanceMs: 1, by: 2 })), 400, 'invalid_request');
    expect(other.details).toEqual([{ field: 'by', message: `is not a field: the body ${message}` }]);
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
    expect(await refusal({ status: 503, times: 0, probability: 2 })).toEqual([
      { field: 'times', message: 'must be a positive integer or "always"' },
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
      '/__admin/requests',
      '/__admin/openapi.json',
    ]);
    expect(document.servers).toEqual([{ url: '/' }]);
    const wrong = await server.admin('/reset', { method: 'GET' });
    await expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('POST, OPTIONS');
    await expectError(await server.admin('/nothing'), 404, 'not_found');
  });
});
