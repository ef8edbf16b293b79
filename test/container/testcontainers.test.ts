/**
 * petstore-service/testcontainers through Testcontainers itself, on the image built from this tree:
 * one container, its main world served to its keys, and two sandboxes in it, each with its own pets
 * and journal, and verify() passing and failing on each as it should.
 */
// @module-tag podman (skipped without podman, failed under CI: test/helpers/system-parts.ts)
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PetStoreContainer, type StartedPetStoreContainer } from '../../testing/testcontainers.ts';
import { ensureImage, IMAGE_BUILD_MS } from '../helpers/image.ts';

// Testcontainers finds podman's Docker API where local-base.sh --socket serves it, and starts no
// Ryuk (its image is in no registry this machine reaches); .ci/run exports both.
const SOCKET = '/run/podman/podman.sock';
if (existsSync(SOCKET)) {
  process.env.DOCKER_HOST ??= `unix://${SOCKET}`;
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
}

/** Longest the container may take to answer /readyz, and to stop, on a busy two-core machine. */
const START_MS = 120_000;
/** A key of the app under test's own, given with withApiKeys. */
const APP_KEY = 'app-under-test-key';

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
/** `GET /pets` with `key`: its status and the pets' names. */
async function listed(url: string, key: string): Promise<[number, string[]]> {
  const response = await fetch(`${url}/pets`, { headers: bearer(key) });
  const body = (await response.json()) as { name: string }[];
  return [response.status, response.ok ? body.map((pet) => pet.name) : []];
}

let petstore: StartedPetStoreContainer;
beforeAll(async () => {
  const image = await ensureImage();
  petstore = await new PetStoreContainer()
    .withImage(image)
    .withApiKeys({ [APP_KEY]: 'pro' })
    .withGenerate({ count: 3, seed: 7 })
    .start();
}, IMAGE_BUILD_MS + START_MS);
afterAll(() => petstore?.stop(), START_MS);

describe('a PetStoreContainer started on the image of this tree', () => {
  it("serves its main world to its keys, a key per plan and the app's own, with the pets it generated", async () => {
    expect(petstore.url).toMatch(/^http:\/\/[^/]+:\d+\/v1$/);
    const [status, names] = await listed(petstore.url, petstore.keys.free);
    expect([status, names.length]).toEqual([200, 3]);
    for (const key of [petstore.keys.pro, petstore.keys.business, APP_KEY]) expect(await listed(petstore.url, key)).toEqual([200, names]);
    expect((await listed(petstore.url, 'no-such-key'))[0]).toBe(401);
  });

  it('opens two sandboxes in the one container, each with its own pets, ids from 1, and neither in the main world', async () => {
    const [a, b] = await Promise.all([petstore.sandbox(), petstore.sandbox()]);
    try {
      expect(a.id).not.toBe(b.id);
      await a.seed([{ name: 'Rex', categoryId: 1 }]);
      const created = await fetch(`${b.url}/pets`, { method: 'POST', headers: bearer(b.keys.pro), body: '{"name":"Tom","categoryId":2}' });
      expect([created.status, await created.json()]).toEqual([201, { id: 1, name: 'Tom', categoryId: 2 }]);

      expect(await a.pets()).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
      expect(await b.pets()).toEqual([{ id: 1, name: 'Tom', categoryId: 2 }]);
      expect(await listed(a.url, a.keys.free)).toEqual([200, ['Rex']]);
      expect(await listed(b.url, b.keys.free)).toEqual([200, ['Tom']]);
      expect((await listed(petstore.url, petstore.keys.free))[1]).toHaveLength(3);
    } finally {
      await Promise.all([a.delete(), b.delete()]);
    }
  });

  it("keeps each sandbox's journal apart: verify() passes on its own requests and fails, with what it recorded, on the other's", async () => {
    const [a, b] = await Promise.all([petstore.sandbox(), petstore.sandbox()]);
    try {
      await listed(a.url, a.keys.free);
      await listed(a.url, a.keys.free);
      await fetch(`${b.url}/pets`, { method: 'POST', headers: bearer(b.keys.free), body: '{"name":"Tom","categoryId":2}' });

      expect((await a.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/pets 200', 'GET /v1/pets 200']);
      expect((await b.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /v1/pets 201']);
      expect((await a.har()).log.entries).toHaveLength(2);

      await expect(a.verify({ method: 'GET', path: '/v1/pets', times: 2 })).resolves.toBeUndefined();
      await expect(b.verify({ method: 'POST', path: '/v1/pets', status: 201, times: 1 })).resolves.toBeUndefined();
      await expect(a.verify({ method: 'POST', path: '/v1/pets', times: 1 })).rejects.toThrow(
        'Expected 1 request(s) matching POST /v1/pets *, got 0.\nRecorded (2, + marks a match):\n    GET /v1/pets -> 200\n    GET /v1/pets -> 200',
      );
      await expect(b.verify({ method: 'GET', path: /^\/v1\/pets/, times: 2 })).rejects.toThrow(
        'Expected 2 request(s) matching GET /^\\/v1\\/pets/ *, got 0.\nRecorded (1, + marks a match):\n    POST /v1/pets -> 201',
      );
    } finally {
      await Promise.all([a.delete(), b.delete()]);
    }
  });

  it("refuses a deleted sandbox's keys, and leaves the other sandboxes and the main world as they were", async () => {
    const [a, b] = await Promise.all([petstore.sandbox(), petstore.sandbox()]);
    try {
      await b.seed({ generate: { count: 2, seed: 1 } });
      await a.delete();
      expect((await listed(a.url, a.keys.free))[0]).toBe(401);
      expect((await listed(b.url, b.keys.free))[1]).toHaveLength(2);
      expect((await listed(petstore.url, petstore.keys.free))[1]).toHaveLength(3);
    } finally {
      await Promise.all([a.delete(), b.delete()]);
    }
  });
});
