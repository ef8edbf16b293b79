/** URLs the API writes (Link, Location, servers): relative or from publicUrl, never the client's Host or query. */
import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/operations/inputs.ts';
import { expectError, postPet, startServer, type TestServer } from '../helpers/server.ts';

async function withPets(server: TestServer, statuses: readonly (string | undefined)[]) {
  for (const status of statuses) await postPet(server, { name: 'pet', categoryId: 1, status });
}

const nextLink = (response: Response) => /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];

describe('URLs the API writes', () => {
  it('carries only limit, status and cursor in the next link, so a key misplaced in the query is never echoed', async () => {
    const server = await startServer();
    await withPets(server, ['sold', 'sold', 'sold']);
    const response = await server.api('/pets?api_key=s3cr3t-key&limit=1&color=red&status=sold');
    expect(nextLink(response)).toBe(`/v1/pets?limit=1&status=sold&cursor=${encodeCursor(1)}`);
    expect(JSON.stringify([...response.headers])).not.toContain('s3cr3t');
  });

  it('writes Link, Location and the successor link as paths when no publicUrl is set, whatever the Host', async () => {
    const server = await startServer();
    const created = await postPet(server, { name: 'Rex', categoryId: 1 }, { headers: { 'x-forwarded-host': 'evil.example' } });
    expect(created.headers.get('location')).toBe('/v1/pets/1');
    await withPets(server, [undefined]);
    expect(nextLink(await server.api('/pets?limit=1'))).toBe(`/v1/pets?limit=1&cursor=${encodeCursor(1)}`);
    expect((await server.api('/pets/1')).headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
    const document = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(document.servers).toEqual([{ url: '/v1' }]);
  });

  it('starts every URL it writes with publicUrl when one is set', async () => {
    const server = await startServer({ publicUrl: 'https://api.example.com/petstore/v1/' });
    const created = await postPet(server, { name: 'Rex', categoryId: 1 });
    expect(created.headers.get('location')).toBe('https://api.example.com/petstore/v1/pets/1');
    await withPets(server, [undefined]);
    expect(nextLink(await server.api('/pets?limit=1'))).toBe(`https://api.example.com/petstore/v1/pets?limit=1&cursor=${encodeCursor(1)}`);
    expect((await server.api('/pets/1')).headers.get('link')).toBe('<https://api.example.com/petstore/v1/pets>; rel="successor-version"');
    const document = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(document.servers).toEqual([{ url: 'https://api.example.com/petstore/v1' }]);
  });
});

describe('cursors', () => {
  it('rejects a well-formed cursor naming no pet (forged) with 400 invalid_request naming cursor', async () => {
    const server = await startServer();
    await withPets(server, ['sold', 'sold']);
    const body = await expectError(await server.api(`/pets?cursor=${encodeCursor(987654)}`), 400, 'invalid_request');
    expect(body.details).toEqual([{ field: 'cursor', message: 'is not a cursor from a Link header of this list' }]);
  });

  it('rejects a cursor from a list with another status filter with 400', async () => {
    const server = await startServer();
    await withPets(server, ['sold', 'sold', 'available']);
    const cursor = new URL(nextLink(await server.api('/pets?status=sold&limit=1'))!, server.url).searchParams.get('cursor');
    expect((await server.api(`/pets?status=sold&cursor=${cursor}`)).status).toBe(200);
    expect((await server.api(`/pets?cursor=${cursor}`)).status).toBe(200);
    await expectError(await server.api(`/pets?status=available&cursor=${cursor}`), 400, 'invalid_request');
  });
});
