/** What hosts hand the handler: caller addresses, mount prefixes, bodies they parsed; and the Response they get back. */
import { describe, expect, it } from 'vitest';
import { createPetStore, type PetStoreContext, type PetStoreOptions } from '../../compose/index.ts';

const KEY = 'host-key';
const petstore = (options: PetStoreOptions = {}) => createPetStore({ apiKeys: { [KEY]: 'pro' }, onError: () => {}, ...options });
const authed = { authorization: `Bearer ${KEY}` };

/** X-RateLimit-Remaining of one anonymous request: which bucket the caller landed in shows in it. */
async function anonymousRemaining(store: ReturnType<typeof petstore>, context: object, headers: Record<string, string> = {}) {
  const response = await store.fetch(new Request('http://x/v1/pets', { headers }), context as PetStoreContext);
  expect(response.status).toBe(401);
  return Number(response.headers.get('x-ratelimit-remaining'));
}

/** Shaped like Bun's Server: `requestIP` refuses any `this` but the server itself. */
class BunServer {
  readonly #ip: string;
  constructor(ip: string) {
    this.#ip = ip;
  }
  requestIP(_request: Request) {
    // Bun checks the native object behind `this`; an object made from the server fails it.
    if (Object.getPrototypeOf(this) !== BunServer.prototype) throw new TypeError('Expected this to be instanceof Server');
    return { address: this.#ip, family: 'IPv4', port: 1 };
  }
}

/** Shaped like Deno's ServeHandlerInfo: `remoteAddr` is a getter over private state, which a wrapper object cannot read. */
class DenoHandlerInfo {
  readonly #remote: { hostname: string };
  constructor(hostname: string) {
    this.#remote = { hostname };
  }
  get remoteAddr() {
    return this.#remote;
  }
}

describe('the caller address each host reports', () => {
  it.each([
    ['Deno.serve handler info', (ip: string) => ({ remoteAddr: { hostname: ip, port: 1, transport: 'tcp' } })],
    ['Deno.serve handler info with private state, as Deno builds it', (ip: string) => new DenoHandlerInfo(ip)],
    ["Bun server whose requestIP insists on its own this, as Bun's does", (ip: string) => new BunServer(ip)],
    ['Bun server', (ip: string) => ({ requestIP: () => ({ address: ip, family: 'IPv4', port: 1 }) })],
    ['@hono/node-server env', (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } })],
    ["an adapter's clientAddress", (ip: string) => ({ clientAddress: ip })],
  ])('gives each address of a %s its own anonymous bucket', async (_, contextFor) => {
    const store = petstore();
    expect(await anonymousRemaining(store, contextFor('192.0.2.1'))).toBe(59);
    expect(await anonymousRemaining(store, contextFor('192.0.2.1'))).toBe(58);
    expect(await anonymousRemaining(store, contextFor('192.0.2.2'))).toBe(59);
  });

  it('ignores X-Forwarded-For and Forwarded unless trustProxy is set', async () => {
    const store = petstore();
    const peer = { clientAddress: '10.0.0.1' };
    expect(await anonymousRemaining(store, peer, { 'x-forwarded-for': '192.0.2.1' })).toBe(59);
    expect(await anonymousRemaining(store, peer, { 'x-forwarded-for': '192.0.2.2', forwarded: 'for=192.0.2.3' })).toBe(58);
  });

  it('believes as many hops as trustProxy counts, and no more', async () => {
    const store = petstore({ trustProxy: 1 });
    const peer = { clientAddress: '10.0.0.1' };
    // The client forged the first entry; the proxy appended the address it saw.
    expect(await anonymousRemaining(store, peer, { 'x-forwarded-for': '6.6.6.6, 192.0.2.1' })).toBe(59);
    expect(await anonymousRemaining(store, peer, { 'x-forwarded-for': '7.7.7.7, 192.0.2.1' })).toBe(58);
    expect(await anonymousRemaining(store, peer, { 'x-forwarded-for': '192.0.2.2' })).toBe(59);
  });

  it('walks back through proxies in the trusted ranges, in RFC 7239 Forwarded when it is the header chosen, and never in the other', async () => {
    const store = petstore({ trustProxy: ['10.0.0.0/8', '2001:db8::1'], proxyHeader: 'forwarded' });
    const peer = { clientAddress: '10.0.0.1' };
    const forwarded = 'for=192.0.2.9, for="[2001:db8::1]:443", for=10.1.2.3:80';
    expect(await anonymousRemaining(store, peer, { forwarded, 'x-forwarded-for': '198.51.100.1' })).toBe(59);
    expect(await anonymousRemaining(store, peer, { forwarded: 'for=192.0.2.9, for=10.9.9.9' })).toBe(58);
    // X-Forwarded-For is not the header chosen: the peer is the caller, whatever it says.
    expect(await anonymousRemaining(store, peer, { 'x-forwarded-for': '198.51.100.1' })).toBe(59);
    expect(await anonymousRemaining(store, peer, { 'x-forwarded-for': '198.51.100.2' })).toBe(58);
    // A peer outside the trusted ranges is the caller, whatever it forwards.
    expect(await anonymousRemaining(store, { clientAddress: '203.0.113.5' }, { 'x-forwarded-for': '192.0.2.9' })).toBe(59);
  });

  it('refuses a trustProxy range that is no address with a TypeError naming it', () => {
    expect(() => petstore({ trustProxy: ['10.0.0.0/8', 'proxy.example'] })).toThrow(/trustProxy: "proxy.example"/);
  });
});

describe('mount prefixes', () => {
  it("reads the prefix and the caller from two contexts, as Hono's mount passes them, a host object first", async () => {
    const store = petstore();
    const created = await store.fetch(
      new Request('http://x/v1/pets', { method: 'POST', headers: { ...authed, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' }),
      new BunServer('192.0.2.1') as never,
      { mountPath: '/api' } as never,
    );
    expect(created.headers.get('location')).toBe('/api/v1/pets/1');
    const anonymous = (ip: string) => store.fetch(new Request('http://x/api/v1/pets'), new BunServer(ip) as never, { mountPath: '/api' } as never);
    expect((await anonymous('192.0.2.1')).headers.get('x-ratelimit-remaining')).toBe('59');
    expect((await anonymous('192.0.2.1')).headers.get('x-ratelimit-remaining')).toBe('58');
    expect((await anonymous('192.0.2.2')).headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('serves under the prefix a host names, whether or not it removed it, and writes it into every URL', async () => {
    const store = petstore();
    const context = { mountPath: '/api' };
    for (const url of ['http://x/api/v1/pets', 'http://x/v1/pets']) {
      const created = await store.fetch(
        new Request(url, { method: 'POST', headers: { ...authed, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' }),
        context,
      );
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toMatch(/^\/api\/v1\/pets\/\d$/);
    }
    const page = await store.fetch(new Request('http://x/api/v1/pets?limit=1', { headers: authed }), context);
    expect(page.headers.get('link')).toMatch(/^<\/api\/v1\/pets\?limit=1&cursor=[\w-]+>; rel="next"$/);
    const document = await (await store.fetch(new Request('http://x/api/v1/openapi.json'), context)).json();
    expect(document.servers).toEqual([{ url: '/api/v1' }]);
    const elsewhere = await store.fetch(new Request('http://x/api/elsewhere'), context);
    expect(await elsewhere.json()).toMatchObject({ status: 404, message: 'This API is served under /api/v1/.' });
  });
});

describe('bodies the host already parsed', () => {
  const post = (store: ReturnType<typeof petstore>, context: PetStoreContext, body?: string) =>
    store.fetch(new Request('http://x/v1/pets', { method: 'POST', headers: { ...authed, 'content-type': 'application/json' }, body }), context);

  it.each([
    ['a parsed JSON value', { name: 'Rex', categoryId: 1 }],
    ['raw text', '{"name":"Rex","categoryId":1}'],
    ['raw bytes', new TextEncoder().encode('{"name":"Rex","categoryId":1}')],
  ])('creates the pet from %s, the request stream left unread', async (_, body) => {
    const response = await post(petstore(), { body });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
  });

  it.each([
    ['missing fields', {}, '{}'],
    ['a reserved key', JSON.parse('{"name":"Rex","categoryId":1,"__proto__":{"x":1}}'), '{"name":"Rex","categoryId":1,"__proto__":{"x":1}}'],
    ['deep nesting', JSON.parse(`{"x":${'['.repeat(40)}${']'.repeat(40)}}`), `{"x":${'['.repeat(40)}${']'.repeat(40)}}`],
    ['an array', [1], '[1]'],
  ])('answers %s with the same 400 as when it reads the body itself', async (_, parsed, raw) => {
    const fromHost = await post(petstore(), { body: parsed });
    const fromStream = await post(petstore(), {}, raw);
    expect(fromHost.status).toBe(400);
    expect(await fromHost.json()).toEqual(await fromStream.json());
  });

  it.each([
    ['status', { status: 413, type: 'entity.too.large' }],
    ['statusCode', { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }],
  ])('answers a parser error with %s 413 with its own 413 payload_too_large', async (_, bodyError) => {
    const response = await post(petstore(), { bodyError: Object.assign(new Error('too large'), bodyError) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('answers text a parser could not parse with the same 400 as when it reads that text itself', async () => {
    for (const raw of ['{"name":"Rex",', '{"name":"Rex","categoryId":1,"__proto__":{}}']) {
      const fromHost = await post(petstore(), { bodyError: Object.assign(new SyntaxError('Unexpected end'), { status: 400, body: raw }) });
      const fromStream = await post(petstore(), {}, raw);
      expect(fromHost.status).toBe(400);
      expect(await fromHost.json()).toEqual(await fromStream.json());
    }
  });

  it('answers a parser error that kept no text with a 400 for invalid JSON', async () => {
    const response = await post(petstore(), { bodyError: new SyntaxError('Unexpected token') });
    expect(await response.json()).toMatchObject({ code: 'invalid_request', message: 'The request body is not valid JSON.' });
  });

  it('refuses a parsed body larger than maxBodyBytes with 413', async () => {
    const response = await post(petstore({ maxBodyBytes: 64 }), { body: { name: 'x'.repeat(100), categoryId: 1 } });
    expect(response.status).toBe(413);
  });
});

describe('the Response a fetch host gets', () => {
  it('answers HEAD with the Content-Length of the GET body, so Deno and Bun do not announce 0', async () => {
    const store = petstore();
    await store.fetch(
      new Request('http://x/v1/pets', { method: 'POST', headers: { ...authed, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' }),
    );
    const get = await store.fetch(new Request('http://x/v1/pets', { headers: authed }));
    const head = await store.fetch(new Request('http://x/v1/pets', { method: 'HEAD', headers: authed }));
    expect(head.headers.get('content-length')).toBe(String(new TextEncoder().encode(await get.text()).byteLength));
  });

  it("is the runtime's own Response class, HEAD included, so hosts such as Hono can read and clone it", async () => {
    const store = petstore();
    for (const method of ['GET', 'HEAD']) {
      const response = await store.fetch(new Request('http://x/v1/pets', { method, headers: authed }));
      expect(response).toBeInstanceOf(Response);
      expect(await response.clone().text()).toBe(method === 'GET' ? '[]' : '');
    }
  });
});
