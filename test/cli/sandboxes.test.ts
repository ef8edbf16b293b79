/** Twenty sandboxes driven at once over HTTP on the built command: each its own ids, quota, clock, faults and journal; deleted; capped. */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const KEY = 'cli-sandbox-main-key-0123';
const ADMIN = 'cli-sandbox-admin-token-0123';
const SANDBOXES = 20;

/** The command with the admin API and `args`; its root URL (no base path) once it prints it. */
async function command(args: string[] = []): Promise<string> {
  const cli = runCli(['--port', '0', '--quiet', '--key', `${KEY}:pro`, '--admin-token', ADMIN, ...args]);
  while (!/listening on (\S+)/.test(cli.stdout())) await once(cli.child.stdout!, 'data');
  return new URL(/listening on (\S+)/.exec(cli.stdout())![1]!).origin;
}

/** A client of one command: the API with a key, and the admin API. */
function client(root: string) {
  const api = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${root}/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });
  // As curl sends it: a content type only with a body.
  const admin = async (path: string, init: RequestInit = {}) =>
    fetch(`${root}/__admin${path}`, {
      ...init,
      headers: { authorization: `Bearer ${ADMIN}`, ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers },
    });
  return { api, admin };
}

type Keys = { free: string; pro: string; business: string };

/** Everything one test in a parallel suite does in its own sandbox; what it saw, for the assertions. */
async function driveSandbox(root: string, index: number) {
  const { api, admin } = client(root);
  const seed = Array.from({ length: index + 1 }, (_, n) => ({ name: `Pet ${index}.${n}`, categoryId: index }));
  const opened = await admin('/sandboxes', { method: 'POST', body: JSON.stringify({ seed }) });
  const { id, keys } = (await opened.json()) as { id: string; keys: Keys };
  const own = (path: string, init?: RequestInit) => admin(`/sandboxes/${id}${path}`, init);

  const created = await (await api(keys.pro, '/pets', { method: 'POST', body: JSON.stringify({ name: `New ${index}`, categoryId: 1 }) })).json();
  await own('/faults', { method: 'POST', body: JSON.stringify({ status: 503, path: '/v1/pets/1', times: 1 }) });
  const faulted = (await api(keys.pro, '/pets/1')).status;
  const afterFault = (await api(keys.pro, '/pets/1')).status;
  // The sandbox's clock stands still from here (moved by hand, it no longer follows real time), so
  // the 61 requests below share one minute however long a loaded machine takes over them.
  await own('/clock', { method: 'POST', body: JSON.stringify({ advanceMs: 0 }) });
  const spent: number[] = [];
  for (let i = 0; i < 61; i++) spent.push((await api(keys.free, '/pets?limit=1')).status);
  await own('/clock', { method: 'POST', body: JSON.stringify({ advanceMs: 60_000 * (index + 1) }) });
  const nextMinute = (await api(keys.free, '/pets?limit=1')).status;
  const clock = (await (await own('/clock')).json()) as { now: string };
  const journal = (await (await own('/requests')).json()) as { method: string; path: string; status: number }[];
  const pets = (await (await own('/pets')).json()) as { id: number; name: string }[];
  return { id, keys, opened, created, faulted, afterFault, spent, nextMinute, clock, journal, pets };
}

describe('petstore-service --admin-token: sandboxes', () => {
  it('keeps twenty sandboxes driven at once apart: each its own ids from 1, quota, clock, faults and journal, the main world untouched', async () => {
    const root = await command();
    const { api, admin } = client(root);
    const mainClock = ((await (await admin('/clock')).json()) as { now: string }).now;
    const runs = await Promise.all(Array.from({ length: SANDBOXES }, (_, index) => driveSandbox(root, index)));

    expect(new Set(runs.map((run) => run.id)).size).toBe(SANDBOXES);
    runs.forEach((run, index) => {
      expect(run.opened.status).toBe(201);
      expect(run.opened.headers.get('location')).toBe(`/__admin/sandboxes/${run.id}`);
      expect(run.created).toMatchObject({ id: index + 2, name: `New ${index}` });
      expect(run.pets.map((pet) => pet.id)).toEqual(Array.from({ length: index + 2 }, (_, n) => n + 1));
      expect([run.faulted, run.afterFault]).toEqual([503, 200]);
      expect(run.spent.slice(0, 60).every((status) => status === 200)).toBe(true);
      expect(run.spent[60]).toBe(429);
      expect(run.nextMinute).toBe(200);
      // Each clock moved by its own minutes from where it stood: no two sandboxes agree.
      expect(Date.parse(run.clock.now) - Date.parse(mainClock)).toBeGreaterThanOrEqual(60_000 * (index + 1));
      expect(Date.parse(run.clock.now) - Date.parse(mainClock)).toBeLessThan(60_000 * (index + 2));
      expect(run.journal).toHaveLength(1 + 2 + 61 + 1);
      expect(run.journal.filter((exchange) => exchange.status === 429)).toHaveLength(1);
    });
    expect(await (await api(KEY, '/pets')).json()).toEqual([]);
    expect(await (await admin('/requests')).json()).toEqual([expect.objectContaining({ path: '/v1/pets' })]);
    expect(((await (await admin('/sandboxes')).json()) as unknown[]).length).toBe(SANDBOXES);

    for (const run of runs) expect((await admin(`/sandboxes/${run.id}`, { method: 'DELETE' })).status).toBe(204);
    const deleted = runs[0]!;
    const refused = await api(deleted.keys.free, '/pets');
    expect([refused.status, (await refused.json()).code]).toEqual([401, 'unauthorized']);
    const gone = await admin(`/sandboxes/${deleted.id}/pets`);
    expect([gone.status, gone.headers.get('content-type'), (await gone.json()).code]).toEqual([404, 'application/json', 'not_found']);
    expect(await (await admin('/sandboxes')).json()).toEqual([]);
  });

  it('answers the sandbox one past --sandboxes with a JSON 409 naming the cap, and opens one again after a delete', async () => {
    const { admin } = client(await command(['--sandboxes', '2']));
    const first = (await (await admin('/sandboxes', { method: 'POST' })).json()) as { id: string };
    await admin('/sandboxes', { method: 'POST', body: '{}' });
    const refused = await admin('/sandboxes', { method: 'POST', body: '{}' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      code: 'too_many_sandboxes',
      message: expect.stringMatching(/^There are already 2 sandboxes, the most at once \(--sandboxes/),
      status: 409,
    });
    await admin(`/sandboxes/${first.id}`, { method: 'DELETE' });
    expect((await admin('/sandboxes', { method: 'POST', body: '{}' })).status).toBe(201);
  });

  it('answers the pet one past --pets, counted in all worlds together, with a JSON 507 naming the bound, and takes one again once a sandbox is deleted', async () => {
    const { api, admin } = client(await command(['--pets', '3']));
    const create = () => api(KEY, '/pets', { method: 'POST', body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
    expect([(await create()).status, (await create()).status]).toEqual([201, 201]);
    const opened = await admin('/sandboxes', { method: 'POST', body: JSON.stringify({ seed: [{ name: 'Tom', categoryId: 2 }] }) });
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };

    const refused = await create();
    expect([refused.status, refused.headers.get('content-type')]).toEqual([507, 'application/json']);
    expect(await refused.json()).toEqual({
      code: 'insufficient_storage',
      message: expect.stringMatching(/^The fake backend holds at most 3 pets in all its worlds \(--pets/),
      status: 507,
    });
    expect(await (await api(KEY, '/pets')).json()).toHaveLength(2);

    expect((await admin(`/sandboxes/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await create()).status).toBe(201);
  });

  it.each([
    [['--sandboxes', '0'], '--sandboxes must be a whole number from 1 to 100000, got "0"; see --help'],
    [['--sandbox-idle', '1.5'], '--sandbox-idle must be a whole number of minutes from 1 to 10080, got "1.5"; see --help'],
    [['--journal', 'lots'], '--journal must be a whole number from 1 to 1000000, got "lots"; see --help'],
    [['--journal-mib', '2048'], '--journal-mib must be a whole number of MiB from 1 to 1024, got "2048"; see --help'],
    [['--pets', '0'], '--pets must be a whole number from 1 to 10000000, got "0"; see --help'],
  ])('refuses %j in one line that names the range', async (args, line) => {
    const { code, stderr } = await runCli(['--port', '0', '--admin-token', ADMIN, ...args]).exited;
    expect([code, stderr]).toEqual([2, `petstore-service: ${line}\n`]);
  });

  it('refuses --sandboxes without --admin-token, naming the flag it needs', async () => {
    const { code, stderr } = await runCli(['--port', '0', '--sandboxes', '5']).exited;
    expect([code, stderr]).toEqual([2, 'petstore-service: --sandboxes bounds the admin API: give --admin-token too; see --help\n']);
  });
});
