/**
 * The admin document true to the last value: each value a generator found the document allowing
 * and the server refusing (or the other way round), sent over a real node:http server. Every
 * answer is also checked against the served document after each test (admin-server.ts).
 */
import { describe, expect, it } from 'vitest';
import { adminServer, json } from '../helpers/admin-server.ts';

describe('the admin document and the server agree', () => {
  it.each([
    'since=-000001-04-01T00:00:00Z',
    'since=%2B000000-02-29T00:00:00Z',
    'since=-969650-11-30T22:49:00%2B18:02',
    'since=%2B999999-12-31T23:59:59.999999999-23:59',
    'status=0',
    'status=999',
    'method=00000',
    'path=/%00',
    'limit=73844208303',
    'limit=999999999999999',
  ])('serves the journal filter %s, which the document allows', async (query) => {
    const server = await adminServer();
    for (const path of ['/requests', '/requests/count']) expect([path, query, (await server.admin(`${path}?${query}`)).status]).toEqual([path, query, 200]);
  });

  it.each([
    'since=-000000-04-01T00:00:00Z',
    'since=2026-11-31T00:00:00Z',
    'since=2025-02-29T00:00:00Z',
    'since=2026-01-01T24:00:00Z',
    'status=1000',
    'limit=0',
  ])('refuses the journal filter %s with a 400, and the document does not allow it', async (query) => {
    const server = await adminServer();
    const document = await (await server.admin('/openapi.json')).json();
    const [name, value] = decodeURIComponent(query).split('=') as [string, string];
    const { pattern } = document.paths['/__admin/requests'].get.parameters.find((p: { name: string }) => p.name === name).schema;
    expect([query, new RegExp(pattern).test(value)]).toEqual([query, false]);
    expect([query, (await server.admin(`/requests?${query}`)).status]).toEqual([query, 400]);
  });

  it.each(['+397271-11-30T21:24:58Z', '-301902-07-17T23:45:00.709-21:55'])(
    'takes a clock set to %s, beyond the Date range, and stops the clock at the range’s end',
    async (set) => {
      const server = await adminServer();
      const answer = await server.admin('/clock', json({ set }));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ now: set.startsWith('+') ? '+275760-09-13T00:00:00.000Z' : '-271821-04-20T00:00:00.000Z' });
      const { id } = await (await server.admin('/sandboxes', json({}))).json();
      expect((await server.admin(`/sandboxes/${id}/clock`, json({ set }))).status).toBe(200);
    },
  );

  it('refuses an advanceMs past the declared maximum, a bound a JSON number holds exactly', async () => {
    const server = await adminServer();
    const document = await (await server.admin('/openapi.json')).json();
    const { maximum } = document.components.schemas.ClockChange.properties.advanceMs;
    expect(Number.isSafeInteger(maximum + 1)).toBe(true);
    expect((await server.admin('/clock', { method: 'POST', body: `{"advanceMs": ${maximum}}` })).status).toBe(200);
    expect((await server.admin('/clock', { method: 'POST', body: `{"advanceMs": ${maximum + 1}}` })).status).toBe(400);
    expect((await server.admin('/clock', { method: 'POST', body: '{"advanceMs": 17280000000000001}' })).status).toBe(400);
  });

  it('refuses POST /__admin/sandboxes with [] as a 400 naming the body', async () => {
    const server = await adminServer();
    const answer = await server.admin('/sandboxes', { method: 'POST', body: '[]' });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'invalid_request', details: [{ field: 'body' }] });
  });

  it.each(['', '/clock', '/faults', '/pets', '/requests', '/requests/count'])(
    'answers HEAD on a path below an id no sandbox has (%s), with a 404 of the declared JSON content type',
    async (below) => {
      const server = await adminServer();
      const answer = await server.admin(`/sandboxes/%C2%84${below}`, { method: 'HEAD' });
      expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([404, 'application/json', '']);
    },
  );
});
