/**
 * The four products (createPetStore, createTestPetStore, the command, the service worker) against
 * one feature matrix: hooks called, faults applied, the journal kept, the JSON error boundary, and
 * the direct node:http path taken where nothing needs a Response. Each is reached only through the
 * built package, as a user reaches it, so the same file runs against any commit.
 */
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createPetStore, type Exchange } from 'petstore-service';
import { serve } from 'petstore-service/node';
import { servePetStoreInWorker } from 'petstore-service/service-worker';
import { createTestPetStore } from 'petstore-service/testing';
import { runCli, type CliProcess } from '../helpers/cli.ts';

const KEY = 'roots-key-0123456789';
const ADMIN = 'roots-admin-token-0123456789';
/** The last instant a JavaScript Date can hold: a clock past it breaks every date the store writes. */
const DATE_RANGE_END_MS = 8.64e15;

/** A fetch as a client sees it, against one product. */
type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => void (await Promise.all(closers.splice(0).map((close) => close()))));

/** The command, started with `args`, once it prints its URL. */
async function command(args: string[]): Promise<{ cli: CliProcess; url: string }> {
  const cli = runCli(['--port', '0', '--key', `${KEY}:pro`, ...args]);
  while (!/listening on (\S+)/.test(cli.stdout())) await once(cli.child.stdout!, 'data');
  return { cli, url: /listening on (\S+)/.exec(cli.stdout())![1]! };
}

/** A fetch for the API at `base` (which ends in /v1) that sends the key. */
const keyed =
  (base: string): Fetch =>
  (path, init) =>
    fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, ...init?.headers } });

/** The admin API at the origin of `base`. */
const admin = (base: string) => (path: string, body?: unknown) =>
  fetch(new URL(`/__admin${path}`, base), {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

/**
 * The header names of a GET as they came over the wire. The direct node:http path counts the body
 * and writes `Content-Length` itself; a Response bridged through @whatwg-node gets `content-length`.
 */
async function wireHeaderNames(url: string): Promise<string[]> {
  const request = httpRequest(url, { headers: { authorization: `Bearer ${KEY}` } });
  request.end();
  const [response] = (await once(request, 'response')) as [import('node:http').IncomingMessage];
  response.resume();
  return response.rawHeaders.filter((_, index) => index % 2 === 0);
}

/** A stand-in service worker scope that hands its fetch listener's answers back. */
function workerScope() {
  let listener: ((event: { request: Request; respondWith(response: Response | PromiseLike<Response>): void }) => void) | undefined;
  const scope = { location: { origin: 'https://app.example' }, addEventListener: (_type: 'fetch', added: typeof listener) => void (listener = added) };
  const fetchInWorker: Fetch = async (path, init) => {
    let answer: Response | PromiseLike<Response> | undefined;
    listener!({
      request: new Request(`https://app.example/v1${path}`, { ...init, headers: { authorization: `Bearer ${KEY}` } }),
      respondWith: (response) => void (answer = response),
    });
    return answer!;
  };
  return { scope, fetchInWorker };
}

/** An IndexedDB stand-in is not needed: the worker takes any PetStorage with `clear`. */
const workerStorage = () => {
  const pets = new Map<number, object>();
  let next = 1;
  return {
    clear: async () => pets.clear(),
    create: async (pet: object) => {
      const stored = { id: next++, ...pet };
      pets.set(stored.id, stored);
      return stored;
    },
    get: async (id: number) => pets.get(id),
    list: async () => [...pets.values()],
  } as never;
};

describe('hooks: onRequest and onResponse see every request, whichever product answers it', () => {
  const watched = () => {
    const seen: string[] = [];
    const hooks = {
      onRequest: (request: Request) => void seen.push(`request ${request.method}`),
      onResponse: ({ response }: Exchange) => void seen.push(`response ${response.status}`),
    };
    return { seen, hooks };
  };

  it('createPetStore calls both', async () => {
    const { seen, hooks } = watched();
    const petstore = createPetStore({ apiKeys: { [KEY]: 'pro' }, ...hooks });
    expect((await petstore.fetch('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    expect(seen).toEqual(['request GET', 'response 200']);
  });

  it('createTestPetStore calls both', async () => {
    const { seen, hooks } = watched();
    const petstore = createTestPetStore({ apiKeys: { [KEY]: 'pro' }, ...hooks });
    expect((await petstore.fetch('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    expect(seen).toEqual(['request GET', 'response 200']);
  });

  it('the service worker calls both', async () => {
    const { seen, hooks } = watched();
    const { scope, fetchInWorker } = workerScope();
    servePetStoreInWorker({ scope, storage: workerStorage(), apiKeys: { [KEY]: 'pro' }, ...hooks });
    expect((await fetchInWorker('/pets')).status).toBe(200);
    expect(seen).toEqual(['request GET', 'response 200']);
  });

  it('the command writes its access log line (its hook) for each request', async () => {
    const { cli, url } = await command([]);
    expect((await keyed(url)('/pets?limit=3')).status).toBe(200);
    while (!cli.stdout().includes('GET /v1/pets?limit=3 200')) await once(cli.child.stdout!, 'data');
    expect(cli.stdout()).toMatch(/^GET \/v1\/pets\?limit=3 200 \d+\.\dms 127\.0\.0\.1$/m);
  });
});

describe('faults: an injected 503 answers instead of the API', () => {
  it('createPetStore with the admin API applies a fault posted to /__admin/faults', async () => {
    const server = await serve(createPetStore({ apiKeys: { [KEY]: 'pro' }, admin: { token: ADMIN } }), { port: 0 });
    closers.push(() => server.close());
    expect((await admin(server.url)('/faults', { status: 503 })).status).toBe(201);
    expect((await keyed(server.url)('/pets')).status).toBe(503);
  });

  it('createTestPetStore applies faults.failNext', async () => {
    const petstore = createTestPetStore({ apiKeys: { [KEY]: 'pro' } });
    petstore.faults.failNext(1, { status: 503 });
    expect((await petstore.fetch('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(503);
  });

  it('the command applies --fail-rate 1 to every request', async () => {
    const { url } = await command(['--quiet', '--fail-rate', '1']);
    const response = await keyed(url)('/pets');
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/json');
  });
});

describe('journal: each exchange is recorded, keys redacted', () => {
  it('createPetStore with the admin API lists it at /__admin/requests', async () => {
    const server = await serve(createPetStore({ apiKeys: { [KEY]: 'pro' }, admin: { token: ADMIN } }), { port: 0 });
    closers.push(() => server.close());
    await keyed(server.url)('/pets');
    const journal = (await (await admin(server.url)('/requests')).json()) as { path: string; status: number; requestHeaders: Record<string, string> }[];
    expect(journal.map(({ path, status, requestHeaders }) => [path, status, requestHeaders.authorization])).toEqual([['/v1/pets', 200, 'Bearer [redacted]']]);
  });

  it('createTestPetStore lists it in requests', async () => {
    const petstore = createTestPetStore({ apiKeys: { [KEY]: 'pro' } });
    await petstore.fetch('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } });
    expect(petstore.requests.map(({ path, status }) => [path, status])).toEqual([['/v1/pets', 200]]);
  });

  it('the command with --admin-token lists it at /__admin/requests', async () => {
    const { url } = await command(['--quiet', '--admin-token', ADMIN]);
    await keyed(url)('/pets');
    const journal = (await (await admin(url)('/requests')).json()) as { path: string; status: number }[];
    expect(journal.map(({ path, status }) => [path, status])).toEqual([['/v1/pets', 200]]);
  });
});

describe('the error boundary: a failure in any layer is a JSON Error body, never a stack trace', () => {
  /** What a client sees of a failed answer. */
  const seen = async (response: Response) => ({ status: response.status, type: response.headers.get('content-type'), body: await response.json() });
  const internalError = { status: 500, type: 'application/json', body: { code: 'internal_error', message: expect.any(String), status: 500 } };

  it('createTestPetStore with its clock past the date range answers /healthz and the API with JSON 500s, and reset() recovers once the clock is back', async () => {
    const petstore = createTestPetStore({ apiKeys: { [KEY]: 'pro' }, onError: () => {}, start: '2026-01-01T00:00:00Z' });
    petstore.clock.set(DATE_RANGE_END_MS);
    petstore.clock.advance(1);
    expect(await seen(await petstore.fetch('http://x/healthz'))).toEqual(internalError);
    expect(await seen(await petstore.fetch('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } }))).toEqual(internalError);
    petstore.clock.set('2026-01-01T00:00:00Z');
    await petstore.reset();
    expect((await petstore.fetch('http://x/healthz')).status).toBe(200);
  });

  it('createPetStore with the admin API and a clock past the date range answers with JSON 500s over HTTP', async () => {
    const now = () => DATE_RANGE_END_MS + 1;
    const server = await serve(createPetStore({ apiKeys: { [KEY]: 'pro' }, admin: { token: ADMIN }, now, onError: () => {} }), { port: 0 });
    closers.push(() => server.close());
    expect(await seen(await fetch(new URL('/healthz', server.url)))).toEqual(internalError);
    expect(await seen(await keyed(server.url)('/pets'))).toEqual(internalError);
  });

  it('the service worker answers a storage that throws with a JSON 500', async () => {
    const { scope, fetchInWorker } = workerScope();
    const failing = Object.assign(workerStorage() as object, { list: () => Promise.reject(new Error('IndexedDB is gone')) });
    servePetStoreInWorker({ scope, storage: failing as never, apiKeys: { [KEY]: 'pro' }, onError: () => {} });
    expect(await seen(await fetchInWorker('/pets'))).toEqual(internalError);
  });
});

describe('the direct node:http path: taken wherever no layer needs a Response', () => {
  it('serve(createPetStore()) writes its replies directly', async () => {
    const server = await serve(createPetStore({ apiKeys: { [KEY]: 'pro' } }), { port: 0 });
    closers.push(() => server.close());
    expect(await wireHeaderNames(`${server.url}/pets`)).toContain('Content-Length');
  });

  it('the command as npm start runs it (access log on) writes its replies directly', async () => {
    const { url } = await command([]);
    expect(await wireHeaderNames(`${url}/pets`)).toContain('Content-Length');
  });

  it('the command with --quiet writes its replies directly', async () => {
    const { url } = await command(['--quiet']);
    expect(await wireHeaderNames(`${url}/pets`)).toContain('Content-Length');
  });

  it('a store with hooks goes through Responses, and answers the same', async () => {
    const server = await serve(createPetStore({ apiKeys: { [KEY]: 'pro' }, onResponse: () => {} }), { port: 0 });
    closers.push(() => server.close());
    expect(await wireHeaderNames(`${server.url}/pets`)).toContain('content-length');
  });
});
