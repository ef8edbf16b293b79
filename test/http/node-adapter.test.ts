/** petstore-service/node: URL, await using, graceful close, and what serve() and listen() accept. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serve } from '../../runtimes/node/index.ts';
import { listen } from '../../testing/index.ts';
import { createPetStore, type PetStorage } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import type { ListeningPetStore } from '../../runtimes/node/index.ts';
import { rawConnect } from '../helpers/raw-http.ts';
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

  it('refuses new connections on close, and lets a request in flight finish before close resolves', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const listing = new Promise<void>((resolve) => (entered = resolve));
    const inner = memoryPetStorage();
    const storage: PetStorage = { ...inner, list: async (query) => (entered(), await gate, inner.list(query)) };
    // No cut-off while the test holds the request: close() must wait for it, however slow the machine.
    const server = await startServer({ storage, shutdownTimeoutMs: 600_000 });
    const inFlight = server.api('/pets');
    await listing;
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await expect(fetch(`${server.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).rejects.toThrow();
    // The request is still held, so a close() that resolved now would have dropped it.
    expect(closed).toBe(false);
    release();
    expect((await inFlight).status).toBe(200);
    await closing;
    expect(closed).toBe(true);
  });
});

describe('petstore-service/node close()', () => {
  it('answers a request in flight on close with Connection: close, and closes its connection after it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const listing = new Promise<void>((resolve) => (entered = resolve));
    const inner = memoryPetStorage();
    const storage: PetStorage = { ...inner, list: async (query) => (entered(), await gate, inner.list(query)) };
    const server = await startServer({ storage });
    const connection = await rawConnect(server.url);
    connection.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n\r\n`);
    await listing;
    const closing = server.close();
    release();
    const [response] = await connection.untilClosed();
    expect(response?.status).toBe(200);
    expect(response?.headers.connection).toBe('close');
    await closing;
  });
});

describe('serve() and listen() arguments', () => {
  const listening: ListeningPetStore[] = [];
  afterEach(async () => {
    await Promise.all(listening.splice(0).map((server) => server.close()));
    vi.unstubAllEnvs();
  });
  const started = <T extends ListeningPetStore>(server: T) => (listening.push(server), server);

  it('serves a handler passed first at a URL ending in its base path, and leaves it usable after close', async () => {
    const petstore = createPetStore({ basePath: '/api', apiKeys: { k: 'free' } });
    const server = await serve(petstore, { port: 0 });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(server.petstore).toBe(petstore);
    expect((await fetch(`${server.url}/pets`, { headers: { authorization: 'Bearer k' } })).status).toBe(200);
    await server.close();
    expect((await petstore.fetch('http://x/api/pets', { headers: { authorization: 'Bearer k' } })).status).toBe(200);
  });

  it('takes its keys from PETSTORE_API_KEYS when apiKeys is not given, and apiKeys over it when it is', async () => {
    vi.stubEnv('PETSTORE_API_KEYS', 'env-key:free');
    const fromEnv = started(await serve({ port: 0 }));
    expect((await fetch(`${fromEnv.url}/pets`, { headers: { authorization: 'Bearer env-key' } })).status).toBe(200);
    const fromOptions = started(await serve({ port: 0, apiKeys: { 'option-key': 'free' } }));
    expect((await fetch(`${fromOptions.url}/pets`, { headers: { authorization: 'Bearer env-key' } })).status).toBe(401);
    expect((await fetch(`${fromOptions.url}/pets`, { headers: { authorization: 'Bearer option-key' } })).status).toBe(200);
  });

  it('refuses a malformed PETSTORE_API_KEYS at startup, naming the variable and never the key', async () => {
    vi.stubEnv('PETSTORE_API_KEYS', 'good-key:free,topsecret:gold');
    const error = await serve({ port: 0 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toMatch(/^serve: PETSTORE_API_KEYS: API key entry 2: an unknown plan; plans: free, pro, business/);
    expect(error?.message).not.toContain('topsecret');
  });

  it.each<[string, unknown[], RegExp]>([
    ['a misspelt option', [{ prot: 0 }], /^serve: unknown option "prot" \(did you mean "port"\?\); the options are .*port, hostname, signal, handleSignals/],
    ['host, now hostname', [{ host: '127.0.0.1' }], /^serve: unknown option "host"; the interface option is "hostname"$/],
    ['a handler inside the options', [{ handler: createPetStore() }], /^serve: a handler is not an option; pass it first/],
    ['store options next to a handler', [createPetStore(), { apiKeys: { k: 'free' } }], /^serve: "apiKeys" is a store option/],
    ['a second argument after options', [{ port: 0 }, { port: 0 }], /^serve: takes serve\(options\) or serve\(handler, listenOptions\)/],
    ['a port out of range', [{ port: 70_000 }], /^serve: port must be an integer from 0 to 65535$/],
  ])('refuses %s with a TypeError before listening', async (_, args, message) => {
    const error = await (serve as (...a: unknown[]) => Promise<ListeningPetStore>)(...args).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toMatch(message);
  });

  it('closes when its signal aborts, and close() then resolves at once', async () => {
    const controller = new AbortController();
    const server = await serve({ port: 0, signal: controller.signal });
    controller.abort();
    await server.close();
    await expect(fetch(`${server.url}/openapi.json`)).rejects.toThrow();
  });

  it('listen(handler) answers at a URL ending in the handler base path', async () => {
    const server = started(await listen(createPetStore({ basePath: '/api' })));
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
  });

  it('listen refuses options other than port, hostname and signal, even those node:http has', async () => {
    const listenWith = listen as (handler: unknown, options: object) => Promise<ListeningPetStore>;
    await expect(listenWith(createPetStore(), { handleSignals: true })).rejects.toThrow(
      new TypeError('listen: unknown option "handleSignals"; the options are port, hostname, signal'),
    );
  });
});
