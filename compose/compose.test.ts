/** The hooks, standing faults and /healthz in process: which requests the hooks see, what they cannot break, what a standing fault answers, where /healthz lives, what a node:http front takes, how a product lays its members over the store. */
import { describe, expect, it } from 'vitest';
import { controlLayers } from '../controls/index.ts';
import { nodeListener } from '../hosts/node/listener.ts';
import { resolveOptions, type Exchange, type PetStoreOptions } from '../src/index.ts';
import { compose, toPetStore } from './compose.ts';
import { createPetStore } from './create-pet-store.ts';

const KEY = 'hook-key';
const authed = { authorization: `Bearer ${KEY}` };

/** A store whose hooks write what they see to `seen`, in the order they are called. */
function watchedStore(options: PetStoreOptions = {}) {
  const seen: string[] = [];
  const exchanges: Exchange[] = [];
  const petstore = createPetStore({
    apiKeys: { [KEY]: 'pro' },
    onError: () => {},
    onRequest: (request) => void seen.push(`request ${request.method} ${new URL(request.url).pathname}`),
    onResponse: (exchange) => {
      exchanges.push(exchange);
      seen.push(`response ${exchange.request.method} ${new URL(exchange.request.url).pathname} ${exchange.response.status}`);
    },
    ...options,
  });
  return { petstore, seen, exchanges };
}

describe('the onRequest and onResponse hooks', () => {
  it('see every request the handler answers, the request first: API calls, preflights, 404s outside the base path, /healthz', async () => {
    const { petstore, seen } = watchedStore({ cors: ['https://app.example'] });
    await petstore.fetch('http://x/v1/pets', { headers: authed });
    await petstore.fetch('http://x/v1/pets', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    await petstore.fetch('http://x/elsewhere');
    await petstore.fetch('http://x/healthz');
    await petstore.fetch('http://x/v1/pets');
    expect(seen).toEqual([
      'request GET /v1/pets',
      'response GET /v1/pets 200',
      'request OPTIONS /v1/pets',
      'response OPTIONS /v1/pets 204',
      'request GET /elsewhere',
      'response GET /elsewhere 404',
      'request GET /healthz',
      'response GET /healthz 200',
      'request GET /v1/pets',
      'response GET /v1/pets 401',
    ]);
  });

  it('hand onResponse the very response the client gets, its time and the address the host told', async () => {
    const { petstore, exchanges } = watchedStore();
    const response = await petstore.fetch(new Request('http://x/v1/pets', { headers: authed }), { clientAddress: '203.0.113.7' });
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.response).toBe(response);
    expect(exchanges[0]!.clientAddress).toBe('203.0.113.7');
    expect(exchanges[0]!.ms).toBeGreaterThanOrEqual(0);
    expect(await response.json()).toEqual([]);
  });

  it('leave clientAddress out when no host tells it', async () => {
    const { petstore, exchanges } = watchedStore();
    await petstore.fetch('http://x/v1/pets', { headers: authed });
    expect('clientAddress' in exchanges[0]!).toBe(false);
  });

  it('send a rejected async hook to onError, and the answer is unchanged', async () => {
    const errors: unknown[] = [];
    const failure = new Error('the log collector is down');
    const petstore = createPetStore({ apiKeys: { [KEY]: 'pro' }, onError: (error) => errors.push(error), onResponse: async () => Promise.reject(failure) });
    const response = await petstore.fetch('http://x/v1/pets', { headers: authed });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
    expect(errors).toEqual([failure]);
  });

  it('cannot break the answer even when onError throws on what a hook threw', async () => {
    const petstore = createPetStore({
      apiKeys: { [KEY]: 'pro' },
      onError: () => {
        throw new Error('onError is broken too');
      },
      onRequest: () => {
        throw new Error('onRequest is broken');
      },
      onResponse: () => {
        throw new Error('onResponse is broken');
      },
    });
    const response = await petstore.fetch('http://x/v1/pets', { headers: authed });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it('see what is put inside them: a fault answers 503 and onResponse sees the 503 and its delay', async () => {
    const exchanges: Exchange[] = [];
    const config = resolveOptions({ apiKeys: { [KEY]: 'pro' }, onResponse: (exchange) => void exchanges.push(exchange) });
    const petstore = toPetStore(compose({ config, standingFaults: [{ status: 503, delayMs: 20 }], layers: controlLayers }));
    const response = await petstore.fetch('http://x/v1/pets', { headers: authed });
    expect(response.status).toBe(503);
    expect(exchanges.map(({ response: { status }, ms }) => ({ status, late: ms >= 19 }))).toEqual([{ status: 503, late: true }]);
  });
});

describe("standing faults without controls (the command's --fail-rate)", () => {
  const ORIGIN = 'https://app.example';
  const standing = (status: number) =>
    toPetStore(
      compose({ config: resolveOptions({ apiKeys: { [KEY]: 'pro' }, cors: [ORIGIN] }), standingFaults: [{ status, times: 'always' }], layers: controlLayers }),
    );

  it("answer GET /v1/pets/{id} with a 503 that carries the API's headers there: deprecation, quota, CORS", async () => {
    const response = await standing(503).fetch('http://x/v1/pets/1', { headers: { ...authed, origin: ORIGIN } });
    expect([response.status, response.statusText]).toEqual([503, 'Service Unavailable']);
    expect(response.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(response.headers.get('link')).toMatch(/rel="successor-version"/);
    expect([response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]).toEqual(['300', '299']);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });

  it('are refused, as a clock and the admin API are, by a product built without the control layers (the service worker)', () => {
    const config = resolveOptions({ apiKeys: { [KEY]: 'pro' } });
    const refusal = 'compose: a clock, the admin API or standing faults need the control layers';
    expect(() => compose({ config, standingFaults: [{ status: 503 }] })).toThrow(refusal);
    expect(() => compose({ config: resolveOptions({ admin: { token: 'a'.repeat(16) } }) })).toThrow(refusal);
    expect(compose({ config }).controls).toBeUndefined();
  });

  it("answer a standing 429 with the caller's plan, its minute spent", async () => {
    const response = await standing(429).fetch('http://x/v1/pets', { headers: authed });
    expect([response.status, response.statusText]).toEqual([429, 'Too Many Requests']);
    expect(response.headers.get('ratelimit-policy')).toBe('"minute";q=300;w=60, "day";q=10000;w=86400');
    expect([response.headers.get('x-ratelimit-remaining'), response.headers.get('retry-after')]).toEqual(['0', '1']);
  });
});

describe('/healthz', () => {
  it('answers 200 {"status":"ok"} at the mount path root, without a key', async () => {
    const petstore = createPetStore();
    const response = await petstore.fetch(new Request('http://x/api/healthz'), { mountPath: '/api' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('is /healthz beside the operations when the API is served from the root (basePath "")', async () => {
    const petstore = createPetStore({ basePath: '' });
    const health = await petstore.fetch('http://x/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await petstore.fetch('http://x/pets')).status).toBe(401);
  });

  it('is not under the base path: /v1/healthz is an API path, which wants a key', async () => {
    const response = await createPetStore().fetch('http://x/v1/healthz');
    expect(response.status).toBe(401);
  });
});

describe("a node:http front (the command's /metrics)", () => {
  /** A node:http exchange as the store tells one apart: a request with `on` and `headers`, a response with `writeHead`. */
  const exchange = (url: string) => ({ req: { url, method: 'GET', headers: {}, on() {} }, res: { writeHead() {}, end() {} } });

  it('answers what it takes before every layer, the hooks included, and leaves a Request to the store', async () => {
    const seen: string[] = [];
    const fronted: unknown[] = [];
    const config = resolveOptions({ onRequest: (request) => void seen.push(new URL(request.url).pathname) });
    const front = (req: unknown) => (req as { url: string }).url === '/metrics' && fronted.push(req) > 0;
    const petstore = toPetStore(compose({ config, front }), nodeListener);
    const { req, res } = exchange('/metrics');
    await petstore(req as never, res as never);
    expect(fronted).toEqual([req]);
    expect((await petstore.fetch('http://x/metrics')).status).toBe(404);
    expect(seen).toEqual(['/metrics']);
  });
});

describe("toPetStore's members (the test kit's)", () => {
  it('lay a product’s own members over the store, getters kept live, the store still callable', async () => {
    let reads = 0;
    const petstore = toPetStore(compose({ config: resolveOptions({}) }), undefined, (store) => ({
      fetch: (input: string) => store(new Request(input)),
      get reads() {
        return ++reads;
      },
    }));
    expect([petstore.reads, petstore.reads]).toEqual([1, 2]);
    expect((await petstore.fetch('http://x/healthz')).status).toBe(200);
    expect((await petstore(new Request('http://x/readyz'))).status).toBe(200);
    expect(petstore.basePath).toBe('/v1');
  });
});
