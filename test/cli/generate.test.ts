/**
 * petstore-service --generate and a --delay range, on the built command: the pets it starts with
 * are, byte for byte, those the test kit seeds from the same count and seed in process (the start
 * of the cross-runtime identity check), a durable store is seeded on its first start only, and a
 * range is a fault the admin API lists.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestPetStore } from '../../testing/index.ts';
import { runCli } from '../helpers/cli.ts';

const KEY = 'generate-test-key';
const TOKEN = 'admin-token-0123456789';
const KEY_ARGS = ['--key', `${KEY}:enterprise:1000000:1000000`];
/** A first start on an empty directory runs PGlite's initdb: seconds, more on a busy machine. */
const PGLITE_TIMEOUT_MS = 90_000;

const directories: string[] = [];
afterAll(() => directories.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The command with `args`, once it has printed its start lines: its URL and those lines. */
async function started(args: string[]) {
  const cli = runCli(['--port', '0', '--quiet', ...KEY_ARGS, ...args]);
  await new Promise<void>((resolve, reject) => {
    cli.child.stdout!.on('data', () => /\nUsing 1 API key/.test(cli.stdout()) && resolve());
    void cli.exited.then(({ code, stderr }) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  return { cli, url: /listening on (\S+)\n/.exec(cli.stdout())![1]!, stdout: cli.stdout() };
}

/** The exact text of a GET with `authorization`. */
const text = async (url: string, authorization: string) => (await fetch(url, { headers: { authorization } })).text();

/** What the test kit answers, in process, after seeding `{ generate }`: the admin list and the first page of the API. */
async function inProcess(generate: { count: number; seed: number }) {
  const store = createTestPetStore({ admin: { token: TOKEN } });
  await store.seed({ generate });
  return {
    adminBody: await (await store.fetch('http://api.test/__admin/pets', { headers: { authorization: `Bearer ${TOKEN}` } })).text(),
    page: await (await store.fetch('http://api.test/v1/pets?limit=100', { headers: { authorization: `Bearer ${store.keys.enterprise}` } })).text(),
  };
}

describe('petstore-service --generate', () => {
  it('starts with the pets the test kit seeds from the same count and seed: the same JSON text, byte for byte', async () => {
    const expected = await inProcess({ count: 25, seed: 7 });
    expect(JSON.parse(expected.adminBody)).toHaveLength(25);
    const { url, stdout } = await started(['--generate', '25:7', '--admin-token', TOKEN]);
    expect(stdout).toContain('\nPets: 25 generated (--generate 25:7), ids 1 to 25.\n');
    expect(await text(new URL('/__admin/pets', url).href, `Bearer ${TOKEN}`)).toBe(expected.adminBody);
    expect(await text(`${url}/pets?limit=100`, `Bearer ${KEY}`)).toBe(expected.page);
  });

  it('seeds the store without the admin API too, seed 1 when none is given', async () => {
    const expected = await inProcess({ count: 40, seed: 1 });
    const { url } = await started(['--generate', '40']);
    expect(await text(`${url}/pets?limit=100`, `Bearer ${KEY}`)).toBe(expected.page);
  });

  it(
    'seeds a --data store on its first start only: a restart keeps the pets and adds none',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'petstore-generate-'));
      directories.push(dir);
      const expected = await inProcess({ count: 5, seed: 7 });
      const first = await started(['--generate', '5:7', '--data', dir]);
      expect(first.stdout).toContain('\nPets: 5 generated (--generate 5:7), ids 1 to 5.\n');
      expect(await text(`${first.url}/pets?limit=100`, `Bearer ${KEY}`)).toBe(expected.page);
      first.cli.child.kill('SIGTERM');
      await first.cli.exited;
      const second = await started(['--generate', '5:7', '--data', dir]);
      expect(second.stdout).toContain('\nPets: the store already holds some, so --generate 5:7 added none.\n');
      expect(await text(`${second.url}/pets?limit=100`, `Bearer ${KEY}`)).toBe(expected.page);
    },
    PGLITE_TIMEOUT_MS,
  );
});

describe('petstore-service --delay <min-max>', () => {
  it('says the range on start and stands as a fault whose delay is the range, listed by the admin API', async () => {
    const { url, stdout } = await started(['--delay', '1-3', '--admin-token', TOKEN]);
    expect(stdout).toContain('\nDemo faults: every answer 1-3 ms late.\n');
    const faults = await fetch(new URL('/__admin/faults', url), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(await faults.json()).toEqual([{ id: 'fault-1', delayMs: { min: 1, max: 3 }, times: 'always', left: 'always' }]);
    expect((await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
  });
});
