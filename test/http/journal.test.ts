/**
 * The journal over HTTP on a real node:http server: its exchanges and their count by filter, a
 * verification that holds (200) or says what differs (409), the 400 of a filter that cannot be,
 * and no key or admin token in anything it answers. Every admin answer here is checked against the
 * admin document the server serves (test/helpers/admin-server.ts).
 */
import { describe, expect, it } from 'vitest';
import { verificationFailure } from '../../controls/journal/journal.ts';
import { adminServer, FREE, json, TOKEN } from '../helpers/admin-server.ts';
import { expectError, KEY, postPet } from '../helpers/server.ts';

/** A key shaped like a sandbox's, for a sandbox that does not exist: the main world answers it, and journals it. */
const SANDBOX_KEY = `psbx_0123456789ab_free_${'Zz09_-'.repeat(5)}Q7`;

/** A server whose journal holds, in order: GET /v1/pets 200, POST 201, POST 400, GET /v1/pets/99 404, then a minute later POST 201. */
async function journaled() {
  const server = await adminServer();
  expect((await server.api('/pets')).status).toBe(200);
  expect((await postPet(server, { name: 'Rex', categoryId: 1 })).status).toBe(201);
  expect((await postPet(server, { name: '' })).status).toBe(400);
  expect((await server.api('/pets/99')).status).toBe(404);
  const { now } = await (await server.admin('/clock', json({ advanceMs: 60_000 }))).json();
  expect((await postPet(server, { name: 'Tom', categoryId: 2 })).status).toBe(201);
  return { server, minuteLater: now as string };
}

describe('GET /__admin/requests and /__admin/requests/count', () => {
  it('answer the exchanges each filter names, oldest first, and how many: method in any case, path exact, status, since, limit', async () => {
    const { server, minuteLater } = await journaled();
    const listed = async (query: string) =>
      ((await (await server.admin(`/requests?${query}`)).json()) as { method: string; path: string; status: number }[]).map(
        ({ method, path, status }) => `${method} ${path} ${status}`,
      );
    const counted = async (query: string) => (await (await server.admin(`/requests/count?${query}`)).json()).count;
    expect(await listed('')).toEqual(['GET /v1/pets 200', 'POST /v1/pets 201', 'POST /v1/pets 400', 'GET /v1/pets/99 404', 'POST /v1/pets 201']);
    expect(await listed('method=post&status=201')).toEqual(['POST /v1/pets 201', 'POST /v1/pets 201']);
    expect(await listed('path=/v1/pets&method=GET')).toEqual(['GET /v1/pets 200']);
    expect(await listed(`since=${encodeURIComponent(minuteLater)}`)).toEqual(['POST /v1/pets 201']);
    expect(await listed('method=POST&limit=2')).toEqual(['POST /v1/pets 400', 'POST /v1/pets 201']);
    expect(await counted('')).toBe(5);
    expect(await counted('method=post')).toBe(3);
    expect(await counted('status=404&path=/v1/pets/99')).toBe(1);
    expect(await counted('status=500')).toBe(0);
    expect((await server.admin('/requests/count', { method: 'HEAD' })).status).toBe(200);
  });

  it('refuse a filter that is not a number, not a date, not a positive integer or not one of theirs with a 400 naming it', async () => {
    const { server } = await journaled();
    const cases: [string, string][] = [
      ['status=abc', 'status'],
      ['since=yesterday', 'since'],
      ['limit=0', 'limit'],
      ['limit=two', 'limit'],
      ['stauts=200', 'stauts'],
    ];
    for (const [query, field] of cases) {
      for (const path of ['/requests', '/requests/count']) {
        const body = await expectError(await server.admin(`${path}?${query}`), 400, 'invalid_request');
        expect([path, query, body.details?.map((detail) => detail.field)]).toEqual([path, query, [field]]);
      }
    }
  });
});

describe('POST /__admin/verify', () => {
  it('answers 200 with the count when exactly times match, else 409 verification_failed saying what differs, as verify() does', async () => {
    const { server } = await journaled();
    const holds = await server.admin('/verify', json({ method: 'post', path: '/v1/pets', status: 201, times: 2 }));
    expect([holds.status, await holds.json()]).toEqual([200, { count: 2 }]);
    const none = await server.admin('/verify', json({ status: 500, times: 0 }));
    expect([none.status, await none.json()]).toEqual([200, { count: 0 }]);
    const journal = await (await server.admin('/requests')).json();
    const failed = await server.admin('/verify', json({ method: 'POST', times: 1 }));
    expect(failed.status).toBe(409);
    const body = await failed.json();
    expect(body).toEqual({ code: 'verification_failed', message: verificationFailure(journal, { method: 'POST', times: 1 }), status: 409 });
    expect(body.message).toMatch(
      /^Expected 1 request\(s\) matching POST \* \*, got 3\.\nRecorded \(5, \+ marks a match\):\n {4}GET \/v1\/pets -> 200\n {2}\+ POST/,
    );
  });

  it('refuses a verification without times, with a negative one, a path without its slash or a field it does not know, with a 400 naming it', async () => {
    const server = await adminServer();
    const cases: [unknown, string][] = [
      [{ method: 'GET' }, 'times'],
      [{ times: -1 }, 'times'],
      [{ path: 'v1/pets', times: 1 }, 'path'],
      [{ path: '/v1/pets', times: 1, count: 2 }, 'count'],
    ];
    for (const [verification, field] of cases) {
      const body = await expectError(await server.admin('/verify', json(verification)), 400, 'invalid_request');
      expect([verification, body.details?.map((detail) => detail.field)]).toEqual([verification, [field]]);
    }
  });
});

describe('the journal over HTTP', () => {
  it('never shows a key or the admin token a request carried in its query, X-Api-Key, Cookie or JSON body', async () => {
    const server = await adminServer();
    for (const secret of [FREE, SANDBOX_KEY, TOKEN]) {
      const response = await fetch(`${server.url}/pets?key=${encodeURIComponent(secret)}&again=%${secret.charCodeAt(0).toString(16)}${secret.slice(1)}`, {
        method: 'POST',
        // Sent with a key of its own: a 401's body is never read, so nothing of it would be journaled to redact.
        headers: { authorization: `Bearer ${KEY}`, 'x-api-key': secret, cookie: `session=${secret}; theme=dark`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: secret, categoryId: 1 }),
      });
      expect(response.status).toBe(201);
    }
    const raw = await (await server.admin('/requests')).text();
    expect(JSON.parse(raw)).toHaveLength(3);
    for (const secret of [FREE, SANDBOX_KEY, TOKEN]) expect(raw).not.toContain(secret);
    expect(JSON.parse(raw)[0]).toMatchObject({
      query: 'key=[redacted]&again=[redacted]',
      requestHeaders: { 'x-api-key': '[redacted]', cookie: 'session=[redacted]; theme=dark' },
      requestBody: '{"name":"[redacted]","categoryId":1}',
    });
  });
});
