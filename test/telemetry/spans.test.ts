/** petstore-service/opentelemetry over node:http with the SDK's in-memory exporter: each request's SERVER span, its children on PGlite, the caller's trace continued, and no key anywhere. */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PetStorage } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { migrate, pgliteClient, sqlLimitStore, sqlPetStorage } from '../../stores/sql/index.ts';
import { storeOverHttp, testSdk, useContextManager, everythingRecorded } from './otel.ts';

const KEY = 'telemetry-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };
/** Mid-minute, so a test's requests never straddle two minute windows. */
const NOW = Date.UTC(2026, 5, 1, 12, 0, 30);

useContextManager();

describe('each request is one SERVER span', () => {
  it('names GET /v1/pets, GET /v1/pets/{petId} and POST /v1/pets by their route, with the HTTP attributes, the plan and the limits ruling', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    expect((await fetch(`${origin}/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' })).status).toBe(201);
    expect((await fetch(`${origin}/v1/pets?limit=5`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${origin}/v1/pets/1`, { headers: auth })).status).toBe(200);

    const spans = await sdk.serverSpans();
    expect(spans.map((span) => span.name)).toEqual(['POST /v1/pets', 'GET /v1/pets', 'GET /v1/pets/{petId}']);
    expect(spans.map((span) => [span.kind, span.status.code])).toEqual(Array(3).fill([SpanKind.SERVER, SpanStatusCode.UNSET]));
    const common = { 'url.scheme': 'http', 'client.address': '127.0.0.1', 'petstore.plan': 'pro', 'petstore.rate_limit': 'admitted' };
    expect(spans.map((span) => span.attributes)).toEqual([
      { ...common, 'http.request.method': 'POST', 'http.route': '/v1/pets', 'url.path': '/v1/pets', 'http.response.status_code': 201 },
      { ...common, 'http.request.method': 'GET', 'http.route': '/v1/pets', 'url.path': '/v1/pets', 'http.response.status_code': 200 },
      { ...common, 'http.request.method': 'GET', 'http.route': '/v1/pets/{petId}', 'url.path': '/v1/pets/1', 'http.response.status_code': 200 },
    ]);
    // Each its own trace: no caller sent one.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(3);
    expect(spans.every((span) => span.parentSpanContext === undefined)).toBe(true);
  });

  it('answers a 401 with its status code and leaves the span UNSET: the client erred, not the server', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    expect((await fetch(`${origin}/v1/pets`)).status).toBe(401);
    const [span] = await sdk.serverSpans();
    expect(span!.name).toBe('GET /v1/pets');
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(span!.attributes['http.response.status_code']).toBe(401);
    // No key, no plan: counted against the address, and admitted by the limits.
    expect(span!.attributes['petstore.plan']).toBeUndefined();
    expect(span!.attributes['petstore.rate_limit']).toBe('admitted');
  });

  it('marks a 500 from a failing storage as an ERROR, with error.type the status code', async () => {
    const sdk = testSdk();
    const broken: PetStorage = { ...memoryPetStorage(), list: async () => Promise.reject(new Error('disk on fire')) };
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' }, storage: broken });
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(500);
    const [span] = await sdk.serverSpans();
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': '500' });
  });

  it('marks a connection reset on purpose (an injected fault) as an ERROR with error.type connection_reset and no status code', async () => {
    const sdk = testSdk();
    const token = 'telemetry-admin-token-0123';
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' }, admin: { token } });
    const fault = await fetch(`${origin}/__admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ network: 'reset', method: 'POST' }),
    });
    expect(fault.status).toBe(201);
    await expect(fetch(`${origin}/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' })).rejects.toThrow(TypeError);
    const reset = (await sdk.serverSpans()).find((span) => span.attributes['url.path'] === '/v1/pets');
    // The fault answers in front of the API, before any route matched: the method alone names it.
    expect(reset?.name).toBe('POST');
    expect(reset?.status.code).toBe(SpanStatusCode.ERROR);
    expect(reset?.attributes['error.type']).toBe('connection_reset');
    expect(reset?.attributes['http.response.status_code']).toBeUndefined();
    expect((await everythingRecorded(sdk)).filter((text) => text.includes(token))).toEqual([]);
  });

  it('notes a 429 over the minute quota as petstore.rate_limit minute, under the plan enterprise for a quota of its own', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: { perMinute: 1, perDay: 100 } }, now: () => NOW });
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(429);
    const spans = await sdk.serverSpans();
    expect(spans.map((span) => span.attributes['petstore.rate_limit'])).toEqual(['admitted', 'minute']);
    expect(spans.map((span) => span.attributes['petstore.plan'])).toEqual(['enterprise', 'enterprise']);
    expect(spans[1]!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('names a method outside the standard ones _OTHER, never as the client spelt it', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    expect((await fetch(`${origin}/v1/pets`, { method: 'PROPFIND', headers: auth })).status).toBe(405);
    const [span] = await sdk.serverSpans();
    expect(span!.name).toBe('_OTHER /v1/pets');
    expect(span!.attributes['http.request.method']).toBe('_OTHER');
    expect((await everythingRecorded(sdk)).filter((text) => text.includes('PROPFIND'))).toEqual([]);
  });

  it('names a path outside every route by its method alone, without http.route', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    expect((await fetch(`${origin}/v1/nowhere/42`, { headers: auth })).status).toBe(404);
    const [span] = await sdk.serverSpans();
    expect(span!.name).toBe('GET');
    expect(span!.attributes['http.route']).toBeUndefined();
    expect(span!.attributes['url.path']).toBe('/v1/nowhere/42');
  });
});

describe("the caller's trace", () => {
  it('continues the traceparent it was sent: same trace id, and the header span as parent', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const response = await fetch(`${origin}/v1/pets`, { headers: { ...auth, traceparent: `00-${traceId}-${parentId}-01` } });
    expect(response.status).toBe(200);
    const [span] = await sdk.serverSpans();
    expect(span!.spanContext().traceId).toBe(traceId);
    expect(span!.parentSpanContext).toMatchObject({ traceId, spanId: parentId, isRemote: true });
  });

  it('starts a trace of its own when the traceparent is malformed', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    await fetch(`${origin}/v1/pets`, { headers: { ...auth, traceparent: '00-not-a-trace-01' } });
    const [span] = await sdk.serverSpans();
    expect(span!.parentSpanContext).toBeUndefined();
  });
});

describe('the storages on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
    await migrate(pgliteClient(db));
  }, 60_000);
  afterAll(() => db?.close());

  it('appear as CLIENT spans, children of the request they serve, named by operation and collection', async () => {
    const sdk = testSdk();
    const client = pgliteClient(db);
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' }, storage: sqlPetStorage(client), limitStore: sqlLimitStore(client) });
    expect((await fetch(`${origin}/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' })).status).toBe(201);
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(200);

    const spans = await sdk.spans();
    const [post, get] = spans.filter((span) => span.kind === SpanKind.SERVER);
    const childrenOf = (parent: typeof post) =>
      spans
        .filter((span) => span.parentSpanContext?.spanId === parent!.spanContext().spanId)
        .map((span) => ({ name: span.name, kind: span.kind, traceId: span.spanContext().traceId, attributes: span.attributes }));
    const child = (operation: string, collection: string, parent: typeof post) => ({
      name: `${operation} ${collection}`,
      kind: SpanKind.CLIENT,
      traceId: parent!.spanContext().traceId,
      attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.collection.name': collection },
    });
    expect(childrenOf(post)).toEqual([child('take', 'limits', post), child('create', 'pets', post)]);
    expect(childrenOf(get)).toEqual([child('take', 'limits', get), child('list', 'pets', get)]);
  });

  it('mark a failing database call as an ERROR with its code, never its message', async () => {
    const sdk = testSdk();
    const storage = sqlPetStorage(pgliteClient(db));
    const refused = Object.assign(new Error(`connection to db.internal refused for ${KEY}`), { code: 'ECONNREFUSED' });
    const broken: PetStorage = Object.assign(Object.create(null), storage, { list: async () => Promise.reject(refused) });
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' }, storage: broken });
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(500);
    const spans = await sdk.spans();
    const list = spans.find((span) => span.name === 'list pets');
    expect(list?.status.code).toBe(SpanStatusCode.ERROR);
    expect(list?.attributes['error.type']).toBe('ECONNREFUSED');
    expect((await everythingRecorded(sdk)).filter((text) => text.includes('db.internal') || text.includes(KEY))).toEqual([]);
  });
});

describe('what telemetry never records', () => {
  it('holds no key in any span name or attribute, nor in any metric, when the key is sent in the header, the path and the query', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    await fetch(`${origin}/v1/pets?key=${KEY}`, { headers: auth });
    await fetch(`${origin}/v1/pets/${KEY}?api_key=${KEY}`, { headers: auth });
    await fetch(`${origin}/v1/${KEY}/pets`, { headers: { authorization: `Bearer ${KEY}x` } });
    const spans = await sdk.serverSpans();
    expect(spans.map((span) => span.attributes['url.path'])).toEqual(['/v1/pets', '/v1/pets/[redacted]', '/v1/[redacted]/pets']);
    const recorded = await everythingRecorded(sdk);
    expect(recorded.length).toBeGreaterThan(20);
    expect(recorded.filter((text) => text.includes(KEY.slice(0, 12)))).toEqual([]);
  });

  it('puts no pet id in a span name or a metric attribute: the route template stands for it', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    expect((await fetch(`${origin}/v1/pets/987654`, { headers: auth })).status).toBe(404);
    const [span] = await sdk.serverSpans();
    expect(span!.name).toBe('GET /v1/pets/{petId}');
    const points = await sdk.points();
    expect(points.length).toBeGreaterThan(0);
    expect(JSON.stringify(points.map((point) => point.attributes))).not.toContain('987654');
  });
});
