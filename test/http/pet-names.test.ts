/** The longest pet name on a real server: counted in code points as the document's maxLength is, refused past it, and a longer name stored earlier still read. */
import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH } from '../../src/storage/pet.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { expectError, postPet, startServer } from '../helpers/server.ts';

/** A character outside the Basic Multilingual Plane: two UTF-16 units, one code point. */
const DOG = '\u{1F415}';

describe('pet names', () => {
  it('are at most 100 characters, as the document says', async () => {
    const server = await startServer();
    const document = await (await server.api('/openapi.json')).json();
    expect(MAX_NAME_LENGTH).toBe(100);
    expect(document.components.schemas.NewPet.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH });
    // A stored pet keeps its name: the answer schema bounds nothing a store may already hold.
    expect(document.components.schemas.Pet.properties.name.maxLength).toBeUndefined();
  });

  it('accepts a name of exactly the maximum and stores it whole', async () => {
    const server = await startServer();
    const name = 'a'.repeat(MAX_NAME_LENGTH);
    const response = await postPet(server, { name, categoryId: 1 });
    expect(response.status).toBe(201);
    expect((await response.json()).name).toBe(name);
  });

  it('refuses a name one character past the maximum with a 400 invalid_request naming name', async () => {
    const server = await startServer();
    const response = await postPet(server, { name: 'a'.repeat(MAX_NAME_LENGTH + 1), categoryId: 1 });
    await expectError(response.clone(), 400, 'invalid_request');
    expect((await response.json()).details).toEqual([{ field: 'name', message: `must be at most ${MAX_NAME_LENGTH} characters (Unicode code points)` }]);
    expect(await (await server.api('/pets')).json()).toEqual([]);
  });

  it('refuses the 65,000-character name the security review stored', async () => {
    const server = await startServer();
    await expectError(await postPet(server, { name: 'x'.repeat(65_000), categoryId: 1 }), 400, 'invalid_request');
  });

  it('counts code points, as JSON Schema does: 100 emoji (200 UTF-16 units) are accepted, 101 refused', async () => {
    const server = await startServer();
    expect((await postPet(server, { name: DOG.repeat(MAX_NAME_LENGTH), categoryId: 1 })).status).toBe(201);
    await expectError(await postPet(server, { name: DOG.repeat(MAX_NAME_LENGTH + 1), categoryId: 1 }), 400, 'invalid_request');
  });

  it('refuses a seeded pet past the maximum too, naming its index, since a seed is validated like POST /pets', async () => {
    const server = await startServer({ admin: { token: 'names-admin-0123456789' } });
    const response = await fetch(new URL('/__admin/seed', server.url), {
      method: 'POST',
      headers: { authorization: 'Bearer names-admin-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify([
        { name: 'Rex', categoryId: 1 },
        { name: 'a'.repeat(MAX_NAME_LENGTH + 1), categoryId: 1 },
      ]),
    });
    await expectError(response.clone(), 400, 'invalid_request');
    expect((await response.json()).details).toEqual([{ field: '1.name', message: expect.stringContaining(`at most ${MAX_NAME_LENGTH}`) }]);
  });

  it('still reads a pet stored before the limit with a longer name, in the list and by id', async () => {
    const storage = memoryPetStorage();
    // Straight into the store, as a pet created before the limit existed is there.
    const stored = await storage.create({ name: 'b'.repeat(5_000), categoryId: 2, status: 'sold' });
    const server = await startServer({ storage });
    expect(await (await server.api('/pets')).json()).toEqual([stored]);
    expect(await (await server.api('/pets?status=sold&limit=1')).json()).toEqual([stored]);
    const one = await server.api(`/pets/${stored.id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual(stored);
  });
});
