/** `npm run example:workers` as a user runs it: exact rate limits under concurrency, and pets and quotas kept across a restart in PETSTORE_DATA. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startExample, wire, type WireResponse } from '../mount/examples.ts';

const KEYS = 'free-a:free,free-b:free,free-c:free,keeper:pro';
const data = mkdtempSync(join(tmpdir(), 'petstore-workers-'));
afterAll(() => rmSync(data, { recursive: true, force: true }));

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
/**
 * Spends `key`'s minute one request at a time, up to its first 429, and resolves to that 429. A
 * minute that ends on the way starts the count again: at most 60 more reach the next one's 429.
 */
async function spendMinute(api: string, key: string): Promise<WireResponse> {
  let spent: WireResponse | undefined;
  for (let i = 0; i < 121 && spent?.status !== 429; i++) spent = await wire(`${api}/pets`, { headers: bearer(key) });
  expect(spent!.status).toBe(429);
  return spent!;
}

/** The minute window a 200 was counted in, by its X-RateLimit-Reset. */
const windowOf = (response: WireResponse) => response.headers['x-ratelimit-reset'];

describe('npm run example:workers', () => {
  it('admits exactly 60 of 100 concurrent requests on a free key, and answers the other 40 with 429', async () => {
    const server = await startExample('workers', { PETSTORE_API_KEYS: KEYS });
    try {
      // A burst that straddles a minute's end is counted in two windows; the next key tries again.
      for (const key of ['free-a', 'free-b', 'free-c']) {
        const answers = await Promise.all(Array.from({ length: 100 }, () => wire(`${server.url}/pets`, { headers: bearer(key) })));
        // (A 429's reset may be a ban's end: past ten refusals in a minute the key is banned.)
        if (new Set(answers.filter((a) => a.status === 200).map(windowOf)).size > 1) continue;
        const statuses = answers.map((answer) => answer.status);
        expect({ admitted: statuses.filter((s) => s === 200).length, refused: statuses.filter((s) => s === 429).length }).toEqual({
          admitted: 60,
          refused: 40,
        });
        expect(answers.filter((a) => a.status === 429).every((a) => a.headers['x-ratelimit-remaining'] === '0')).toBe(true);
        return;
      }
      throw new Error('three bursts in a row each straddled a minute');
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('keeps its pets and a spent minute across a restart with the same PETSTORE_DATA', async () => {
    const env = { PETSTORE_API_KEYS: KEYS, PETSTORE_DATA: data };
    let server = await startExample('workers', env);
    try {
      const created = await wire(`${server.url}/pets`, {
        method: 'POST',
        headers: { ...bearer('keeper'), 'content-type': 'application/json' },
        body: '{"name":"Persisted","categoryId":7}',
      });
      expect(created.status).toBe(201);
      const pet = JSON.parse(created.body);
      for (const key of ['free-a', 'free-b', 'free-c']) {
        const spent = await spendMinute(server.url, key);
        await server.stop();
        server = await startExample('workers', env);
        const after = await wire(`${server.url}/pets`, { headers: bearer(key) });
        // The minute ended while the server restarted: spend the next key's in a new one.
        if (after.status === 200 && windowOf(after) !== windowOf(spent)) continue;
        expect({ status: after.status, remaining: after.headers['x-ratelimit-remaining'], window: windowOf(after) }).toEqual({
          status: 429,
          remaining: '0',
          window: windowOf(spent),
        });
        const kept = await wire(`${server.url}/pets/${pet.id}`, { headers: bearer('keeper') });
        expect({ status: kept.status, pet: JSON.parse(kept.body) }).toEqual({ status: 200, pet: { id: pet.id, name: 'Persisted', categoryId: 7 } });
        return;
      }
      throw new Error('three minutes in a row ended during a restart');
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('with PETSTORE_ADMIN_TOKEN is one fake backend: a seed, a moved clock and a reset are what the next request sees', async () => {
    const token = 'admin-token-0123456789';
    const server = await startExample('workers', { PETSTORE_API_KEYS: KEYS, PETSTORE_ADMIN_TOKEN: token });
    const admin = `${server.url.slice(0, -'/v1'.length)}/__admin`;
    const asAdmin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    try {
      const seeded = await wire(`${admin}/seed`, { method: 'POST', headers: asAdmin, body: '[{"name":"Seeded","categoryId":4}]' });
      expect(seeded.status).toBe(201);
      expect(JSON.parse((await wire(`${server.url}/pets`, { headers: bearer('keeper') })).body)).toEqual([{ id: 1, name: 'Seeded', categoryId: 4 }]);

      await spendMinute(server.url, 'free-a');
      const moved = await wire(`${admin}/clock`, { method: 'POST', headers: asAdmin, body: '{"advanceMs":60000}' });
      expect(moved.status).toBe(200);
      expect((await wire(`${server.url}/pets`, { headers: bearer('free-a') })).status).toBe(200);

      expect((await wire(`${admin}/reset`, { method: 'POST', headers: asAdmin })).status).toBe(204);
      expect(JSON.parse((await wire(`${server.url}/pets`, { headers: bearer('keeper') })).body)).toEqual([]);
      expect((await wire(`${admin}/pets`)).status).toBe(401);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('without PETSTORE_ADMIN_TOKEN has no admin API: /__admin is a 404', async () => {
    const server = await startExample('workers', { PETSTORE_API_KEYS: KEYS });
    try {
      const answer = await wire(`${server.url.slice(0, -'/v1'.length)}/__admin/pets`, { headers: { authorization: 'Bearer admin-token-0123456789' } });
      expect({ status: answer.status, code: JSON.parse(answer.body).code }).toEqual({ status: 404, code: 'not_found' });
    } finally {
      await server.stop();
    }
  }, 60_000);
});
