/**
 * `petstore.fetch(url, init)` answers a plain init from a request view (hosts/in-process.ts),
 * without making a Request; `petstore.fetch(new Request(url, init))` reads the Request. Both must
 * answer alike, status, headers and body, reject alike what a Request refuses, and hand user code a Request.
 */
import { describe, expect, it } from 'vitest';
import { createPetStore } from './create-pet-store.ts';
import { memoryPetStorage } from '../src/storage/memory-pet-storage.ts';

const KEY = 'in-process-key-0123456789';
const ORIGIN = 'http://localhost';

/** A store with 25 pets on a fixed clock, so two of them answer byte for byte alike. */
async function store() {
  const storage = memoryPetStorage();
  for (let i = 0; i < 25; i++) await storage.create({ name: `pet ${i}`, categoryId: i, status: i % 2 ? 'sold' : 'available' });
  return createPetStore({
    storage,
    apiKeys: { [KEY]: 'pro' },
    cors: ['https://app.example'],
    now: () => Date.parse('2026-06-01T12:00:30Z'),
    onError: () => {},
  });
}

/** What a caller sees of a response. */
async function seen(response: Response) {
  return { status: response.status, statusText: response.statusText, headers: [...response.headers], body: await response.text() };
}

const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };
const requests: [string, string, RequestInit | undefined][] = [
  ['a page with a next link', '/v1/pets?limit=5', { headers: auth }],
  ['a page, headers as pairs', '/v1/pets?limit=5', { headers: [['Authorization', `Bearer ${KEY}`]] }],
  ['a page, headers as Headers', '/v1/pets?limit=5', { headers: new Headers(auth) }],
  ['a pet', '/v1/pets/3', { headers: auth }],
  ['HEAD of a page', '/v1/pets', { method: 'HEAD', headers: auth }],
  ['no init', '/v1/pets', undefined],
  ['a wrong key', '/v1/pets', { headers: { authorization: 'Bearer nope' } }],
  ['a key with spaces around it', '/v1/pets', { headers: { authorization: `  Bearer ${KEY}  ` } }],
  ['an unknown path', '/nothing', { headers: auth }],
  ['a dot segment', '/v1/x/../pets', { headers: auth }],
  ['a wrong method', '/v1/pets/3', { method: 'POST', headers: json, body: '{}' }],
  ['a method in lower case', '/v1/pets', { method: 'get', headers: auth }],
  ['a CORS preflight', '/v1/pets', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } }],
  ['a create', '/v1/pets', { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' }],
  ['a create with a name in Greek', '/v1/pets', { method: 'POST', headers: json, body: '{"name":"Ρεξ","categoryId":1}' }],
  ['a string body sent without a type', '/v1/pets', { method: 'POST', headers: auth, body: '{"name":"Rex","categoryId":1}' }],
  ['a body as bytes', '/v1/pets', { method: 'POST', headers: json, body: new TextEncoder().encode('{"name":"Rex","categoryId":1}') }],
  ['an idempotent create', '/v1/pets', { method: 'POST', headers: { ...json, 'idempotency-key': 'k-1' }, body: '{"name":"Tom","categoryId":2}' }],
  ['a body that is not JSON', '/v1/pets', { method: 'POST', headers: json, body: '{"name":' }],
  ['an init with a signal', '/v1/pets', { headers: auth, signal: new AbortController().signal }],
];

describe('petstore.fetch(url, init) in process', () => {
  it.each(requests)('answers %s as it answers the same Request', async (_name, path, init) => {
    const [byUrl, byRequest] = await Promise.all([store(), store()]);
    const url = `${ORIGIN}${path}`;
    expect(await seen(await byUrl.fetch(url, init))).toEqual(await seen(await byRequest.fetch(new Request(url, init))));
  });

  it('hands the clientAddress option the Request it would make, body and all, for a caller without a key', async () => {
    const handed: unknown[] = [];
    const body = '{"name":"Rex","categoryId":1}';
    const petstore = createPetStore({ apiKeys: { [KEY]: 'pro' }, clientAddress: (request) => (handed.push(request), '192.0.2.1'), onError: () => {} });
    const response = await petstore.fetch(`${ORIGIN}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(401);
    expect(handed).toHaveLength(1);
    expect(handed[0]).toBeInstanceOf(Request);
    expect(await (handed[0] as Request).text()).toBe(body);
  });

  it.each([
    ['a header value with a line break', '/v1/pets', { headers: { authorization: 'Bearer a\nb' } }],
    ['a header name with a space', '/v1/pets', { headers: { 'bad name': 'x' } }],
    ['a body on a GET', '/v1/pets', { method: 'GET', body: '{}' }],
    ['a forbidden method', '/v1/pets', { method: 'TRACE' }],
    ['a relative URL', 'v1/pets', {}],
  ] as [string, string, RequestInit][])('rejects %s with the TypeError a Request throws', async (_name, path, init) => {
    const petstore = await store();
    const url = path.startsWith('/') ? `${ORIGIN}${path}` : path;
    expect(() => new Request(url, init)).toThrow(TypeError);
    await expect(petstore.fetch(url, init)).rejects.toThrow(TypeError);
  });
});

describe('the length of a page', () => {
  it.each([
    ['no pets', []],
    ['ASCII names', ['Rex', 'Tom']],
    ['names in Greek', ['Ρεξ', 'Τομ']],
    ['names with emoji and a lone surrogate', ['🐕 Rex', 'Tom \ud800']],
  ])('HEAD tells the UTF-8 length GET sends, for a page of %s', async (_name, names) => {
    const storage = memoryPetStorage();
    for (const name of names) await storage.create({ name, categoryId: 1, status: 'available' });
    const petstore = createPetStore({ storage, apiKeys: { [KEY]: 'pro' } });
    for (const query of ['', '?limit=1']) {
      const body = await (await petstore.fetch(`${ORIGIN}/v1/pets${query}`, { headers: auth })).arrayBuffer();
      const head = await petstore.fetch(`${ORIGIN}/v1/pets${query}`, { method: 'HEAD', headers: auth });
      expect(head.headers.get('content-length')).toBe(String(body.byteLength));
    }
  });
});
