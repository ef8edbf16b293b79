/** GET /v1/pets on a real server: paging, filters, limits, cursors. */
import { describe, expect, it } from 'vitest';
import type { PetStatus } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { expectError, startServer } from '../helpers/server.ts';

/** A server whose storage holds `count` pets, every `soldEvery`-th one sold, others available. */
async function serverWithPets(count: number, soldEvery = 3) {
  const storage = memoryPetStorage();
  for (let i = 1; i <= count; i++) {
    const status: PetStatus = i % soldEvery === 0 ? 'sold' : 'available';
    await storage.create({ name: `pet ${i}`, categoryId: i % 5, status });
  }
  return startServer({ storage });
}

function nextLink(response: Response): string | undefined {
  return /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
}

/** A link's path under the base path, as `server.api` takes it: links are relative, `/v1/pets?…`. */
const underBase = (link: string) => link.slice('/v1'.length);

describe('GET /v1/pets', () => {
  it('returns an empty JSON array when no pets exist', async () => {
    const server = await startServer();
    const response = await server.api('/pets');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual([]);
    expect(response.headers.get('link')).toBeNull();
  });

  it('returns 20 pets by default, in ascending id order, with a next link', async () => {
    const server = await serverWithPets(30);
    const response = await server.api('/pets');
    const pets = await response.json();
    expect(pets.map((p: { id: number }) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(nextLink(response)).toMatch(/^\/v1\/pets\?cursor=[A-Za-z0-9_-]+$/);
  });

  it('honours limit from 1 to 100', async () => {
    const server = await serverWithPets(120);
    for (const limit of [1, 57, 100]) {
      const pets = await (await server.api(`/pets?limit=${limit}`)).json();
      expect(pets).toHaveLength(limit);
    }
  });

  it.each(['0', '101', '-1', '1.5', 'abc', '', '1e2', '99999999999999999999'])(
    'rejects a limit of "%s" with 400 invalid_request naming limit',
    async (limit) => {
      const server = await startServer();
      const body = await expectError(await server.api(`/pets?limit=${limit}`), 400, 'invalid_request');
      expect(body.details).toEqual([{ field: 'limit', message: expect.stringContaining('1 to 100') }]);
    },
  );

  it('filters by status and never matches pets stored without one', async () => {
    const storage = memoryPetStorage();
    await storage.create({ name: 'no status', categoryId: 1 });
    await storage.create({ name: 'sold one', categoryId: 1, status: 'sold' });
    await storage.create({ name: 'pending one', categoryId: 1, status: 'pending' });
    const server = await startServer({ storage });
    for (const [status, names] of [
      ['sold', ['sold one']],
      ['pending', ['pending one']],
      ['available', []],
    ] as const) {
      const pets = await (await server.api(`/pets?status=${status}`)).json();
      expect(pets.map((p: { name: string }) => p.name)).toEqual(names);
    }
    const all = await (await server.api('/pets')).json();
    expect(all[0]).toEqual({ id: 1, name: 'no status', categoryId: 1 });
  });

  it('rejects a status outside the enum with 400 invalid_request naming status', async () => {
    const server = await startServer();
    const body = await expectError(await server.api('/pets?status=lost'), 400, 'invalid_request');
    expect(body.details).toEqual([{ field: 'status', message: 'must be one of available, pending, sold' }]);
  });

  it.each(['limit=5&limit=6', 'status=sold&status=sold', 'cursor=cDE6MQ&cursor=cDE6MQ'])(
    'rejects a repeated parameter (%s) with 400 invalid_request',
    async (query) => {
      const server = await startServer();
      const body = await expectError(await server.api(`/pets?${query}`), 400, 'invalid_request');
      expect(body.details?.[0]?.message).toBe('must appear at most once');
    },
  );

  it('ignores unknown query parameters', async () => {
    const server = await serverWithPets(3);
    const response = await server.api('/pets?color=red&page=9&offset=2');
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(3);
  });

  it('walks every page by following Link rel="next", keeping the filter and limit', async () => {
    const server = await serverWithPets(100, 3);
    const seen: number[] = [];
    let url: string | undefined = '/v1/pets?status=sold&limit=7';
    let pages = 0;
    while (url) {
      const response = await server.api(underBase(url));
      const pets = await response.json();
      expect(pets.length).toBeLessThanOrEqual(7);
      seen.push(...pets.map((p: { id: number; status: string }) => (expect(p.status).toBe('sold'), p.id)));
      url = nextLink(response);
      if (url) expect(new URL(url, server.url).searchParams.get('limit')).toBe('7');
      pages++;
    }
    expect(seen).toEqual(Array.from({ length: 33 }, (_, i) => (i + 1) * 3));
    expect(pages).toBe(5);
  });

  it('sends no next link when the last page is exactly full', async () => {
    const server = await serverWithPets(10);
    const response = await server.api('/pets?limit=10');
    expect(await response.json()).toHaveLength(10);
    expect(response.headers.get('link')).toBeNull();
  });

  it('keeps cursors stable while pets are created between pages', async () => {
    const server = await serverWithPets(2);
    const first = await server.api('/pets?limit=1');
    expect((await first.json()).map((p: { id: number }) => p.id)).toEqual([1]);
    await server.api('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'late', categoryId: 1 }),
    });
    const second = await server.api(underBase(nextLink(first)!));
    expect((await second.json()).map((p: { id: number }) => p.id)).toEqual([2]);
    const third = await server.api(underBase(nextLink(second)!));
    expect(await third.json()).toEqual([{ id: 3, name: 'late', categoryId: 1 }]);
    expect(nextLink(third)).toBeUndefined();
  });

  it.each(['garbage', 'cDE6MA', 'cDE6LTE', 'cDI6MQ', 'cDE6MQ==', '%00', 'a'.repeat(200)])(
    'rejects a malformed cursor "%s" with 400 invalid_request naming cursor',
    async (cursor) => {
      const server = await startServer();
      const body = await expectError(await server.api(`/pets?cursor=${cursor}`), 400, 'invalid_request');
      expect(body.details?.[0]?.field).toBe('cursor');
    },
  );

  it('answers HEAD with the headers of GET and no body', async () => {
    const server = await serverWithPets(25);
    const response = await server.api('/pets', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(nextLink(response)).toBeDefined();
    expect(await response.text()).toBe('');
  });
});
