/**
 * What the dashboard's tables read from the admin API over a real node:http server: each journaled
 * exchange's plan, and each sandbox's count of pets and requests. Every answer is checked against
 * the served admin document (test/helpers/admin-server.ts).
 */
import { describe, expect, it } from 'vitest';
import { adminServer, FREE, json } from '../helpers/admin-server.ts';
import { KEY } from '../helpers/server.ts';

describe('the journal', () => {
  it('names the plan each request was counted against, and none for one counted against no key', async () => {
    const server = await adminServer();
    const { origin } = new URL(server.url);
    const { keys } = await (await server.admin('/sandboxes', json({}))).json();
    await server.api('/pets', { headers: { authorization: `Bearer ${FREE}` } });
    await server.api('/pets');
    await server.api('/pets', { headers: { authorization: 'Bearer not-a-key-0123456789' } });
    await server.api('/openapi.json', { headers: { authorization: `Bearer ${FREE}` } });
    await fetch(`${origin}/healthz`, { headers: { authorization: `Bearer ${KEY}` } });
    await server.api('/pets', { headers: { authorization: `Bearer ${keys.business}` } });
    const main = (await (await server.admin('/requests')).json()) as { path: string; status: number; plan?: string }[];
    expect(main.map(({ path, status, plan }) => [path, status, plan])).toEqual([
      ['/v1/pets', 200, 'free'],
      // The test key's quotas are its own: an Enterprise plan.
      ['/v1/pets', 200, 'enterprise'],
      ['/v1/pets', 401, undefined],
      ['/v1/openapi.json', 200, undefined],
      ['/healthz', 200, undefined],
    ]);
    expect(main.filter(({ status }) => status === 401).every((exchange) => !('plan' in exchange))).toBe(true);
    const [inSandbox] = await (await server.admin(`/sandboxes/${keys.business.split('_')[1]}/requests`)).json();
    expect([inSandbox.path, inSandbox.plan]).toEqual(['/v1/pets', 'business']);
  });
});

describe('the sandboxes', () => {
  it('lists each sandbox with the pets it holds and the exchanges its journal keeps', async () => {
    const server = await adminServer();
    const busy = await (await server.admin('/sandboxes', json({ seed: { generate: { count: 3, seed: 1 } } }))).json();
    const idle = await (await server.admin('/sandboxes', json({}))).json();
    await server.api('/pets', { headers: { authorization: `Bearer ${busy.keys.free}` } });
    await server.api('/pets', {
      ...json({ name: 'Rex', categoryId: 1 }),
      headers: { authorization: `Bearer ${busy.keys.free}`, 'content-type': 'application/json' },
    });
    const listed = (await (await server.admin('/sandboxes')).json()) as { id: string; pets: number; requests: number }[];
    expect(listed.map(({ id, pets, requests }) => [id, pets, requests])).toEqual([
      [idle.id, 0, 0],
      [busy.id, 4, 2],
    ]);
    const one = await (await server.admin(`/sandboxes/${busy.id}`)).json();
    expect([one.pets, one.requests]).toEqual([4, 2]);
  });
});
