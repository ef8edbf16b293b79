/** petstore-service/node: URL, await using, graceful close. */
import { describe, expect, it } from 'vitest';
import { memoryPetStorage, type PetStorage } from '../../src/index.ts';
import { KEY, startServer } from '../helpers/server.ts';

describe('petstore-service/node serve()', () => {
  it('reports a URL with the base path and works with await using', async () => {
    let url: string;
    {
      await using server = await startServer();
      url = server.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect((await server.api('/pets')).status).toBe(200);
    }
    await expect(fetch(`${url}/pets`)).rejects.toThrow();
  });

  it('lets an in-flight request finish on close, then refuses new connections', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = memoryPetStorage();
    const storage: PetStorage = { ...inner, list: async (query) => (await gate, inner.list(query)) };
    const server = await startServer({ storage });
    const inFlight = server.api('/pets');
    await new Promise((resolve) => setTimeout(resolve, 50));
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    release();
    expect((await inFlight).status).toBe(200);
    await closing;
    await expect(fetch(`${server.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).rejects.toThrow();
  });
});
