/** The admin API's clock on a real node:http server: moved by hand, held within the Date range (a long move stops at its end), every refusal a 400 naming what it may be. */
import { describe, expect, it } from 'vitest';
import { adminServer, FREE, json } from '../helpers/admin-server.ts';
import { expectError } from '../helpers/server.ts';

describe('POST /__admin/clock', () => {
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

  it('stops the clock at the end of the Date range for any advanceMs the document allows past it, and the store keeps answering', async () => {
    const server = await adminServer();
    await server.admin('/clock', json({ set: '2026-06-01T12:00:00Z' }));
    // The document's largest advanceMs, a number below 2^53 so the next one past it is a JSON number too.
    const largest = await server.admin('/clock', json({ advanceMs: 8_640_000_000_000_000 }));
    expect(largest.status).toBe(200);
    expect(await largest.json()).toEqual({ now: '+275760-09-13T00:00:00.000Z' });
    expect((await server.api('/pets')).status).toBe(200);
    // At the end, a further move is served too, and the clock stays where it is.
    expect(await (await server.admin('/clock', json({ advanceMs: 1 }))).json()).toEqual({ now: '+275760-09-13T00:00:00.000Z' });
    await server.admin('/clock', json({ set: '2026-06-01T12:00:00Z' }));
    // As far as the range goes, exactly.
    expect(await (await server.admin('/clock', json({ advanceMs: 8.64e15 - Date.parse('2026-06-01T12:00:00Z') }))).json()).toEqual({
      now: '+275760-09-13T00:00:00.000Z',
    });
    expect((await server.api('/pets')).status).toBe(200);
  });

  it('refuses advanceMs past 8640000000000000 (from 1970 to the end of the Date range) with one problem that names the bound', async () => {
    const server = await adminServer();
    // 17280000000000001 is what Schemathesis sent when the bound was twice this: no double, so read as the bound itself and served.
    for (const advanceMs of ['8640000000000001', '17280000000000001', '1e300']) {
      const far = await expectError(await server.admin('/clock', { method: 'POST', body: `{"advanceMs": ${advanceMs}}` }), 400, 'invalid_request');
      expect(far).toMatchObject({
        message: 'Invalid body: advanceMs must be at most 8640000000000000 ms.',
        details: [{ field: 'advanceMs' }],
      });
      expect(far.details).toHaveLength(1);
    }
  });

  it('sets the clock to any time it can show, years past 9999 and both ends of the Date range included, and to the range’s end past it', async () => {
    const server = await adminServer();
    for (const now of ['+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '+010000-01-01T00:00:00.000Z', '-000001-06-01T12:00:00.000Z']) {
      expect(await (await server.admin('/clock', json({ set: now }))).json()).toEqual({ now });
      // What GET shows, set takes back.
      expect(await (await server.admin('/clock', json({ set: (await (await server.admin('/clock')).json()).now }))).json()).toEqual({ now });
    }
    // The document's pattern allows years to ±999999: each is served, the clock stopping at the end it lies past.
    for (const [set, now] of [
      ['+275760-09-13T00:00:00.001Z', '+275760-09-13T00:00:00.000Z'],
      ['-271821-04-19T23:59:59.999Z', '-271821-04-20T00:00:00.000Z'],
      ['+999999-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z'],
    ]) {
      expect([set, await (await server.admin('/clock', json({ set }))).json()]).toEqual([set, { now }]);
    }
    expect((await server.api('/pets')).status).toBe(200);
  });

  it('refuses a day the calendar does not have rather than moving the clock to another one', async () => {
    const server = await adminServer();
    await server.admin('/clock', json({ set: '2026-06-01T12:00:00Z' }));
    for (const set of ['2026-02-29T12:00:00Z', '2026-04-31T00:00:00Z', '1900-02-29T00:00:00Z']) {
      const refused = await expectError(await server.admin('/clock', json({ set })), 400, 'invalid_request');
      expect([set, refused.details]).toEqual([set, [{ field: 'set', message: 'names a day the calendar does not have' }]]);
    }
    expect(await (await server.admin('/clock', json({ set: '2028-02-29T12:00:00+02:00' }))).json()).toEqual({ now: '2028-02-29T10:00:00.000Z' });
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
});
