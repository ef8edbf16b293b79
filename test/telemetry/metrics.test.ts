/** petstore-service/opentelemetry's metrics over node:http, read back from the SDK: request durations by route, refusals by reason, bans in force, pets stored. */
import { describe, expect, it } from 'vitest';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { storeOverHttp, telemetryOn, testSdk, useContextManager } from './otel.ts';

const KEY = 'metrics-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };
/** Mid-minute, so a test's requests never straddle two minute windows. */
const NOW = Date.UTC(2026, 5, 1, 12, 0, 30);

useContextManager();

describe('http.server.request.duration', () => {
  it('is a histogram in seconds by method, route template and status, with the conventions buckets, and nothing else as a label', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    await fetch(`${origin}/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' });
    await fetch(`${origin}/v1/pets/1`, { headers: auth });
    await fetch(`${origin}/v1/pets/2`, { headers: auth });
    await fetch(`${origin}/v1/pets`, { headers: auth });
    await fetch(`${origin}/v1/nowhere`, { headers: auth });

    const points = await sdk.pointsOf('http.server.request.duration');
    expect(points.every((point) => point.unit === 's')).toBe(true);
    const byLabels = points.map((point) => [point.attributes, (point.value as { count: number }).count]);
    expect(byLabels).toEqual(
      expect.arrayContaining([
        [{ 'http.request.method': 'POST', 'http.route': '/v1/pets', 'http.response.status_code': 201 }, 1],
        [{ 'http.request.method': 'GET', 'http.route': '/v1/pets/{petId}', 'http.response.status_code': 200 }, 1],
        [{ 'http.request.method': 'GET', 'http.route': '/v1/pets/{petId}', 'http.response.status_code': 404 }, 1],
        [{ 'http.request.method': 'GET', 'http.route': '/v1/pets', 'http.response.status_code': 200 }, 1],
        [{ 'http.request.method': 'GET', 'http.response.status_code': 404 }, 1],
      ]),
    );
    expect(points).toHaveLength(5);
    const { buckets, sum } = points[0]!.value as { buckets: { boundaries: number[] }; sum: number };
    expect(buckets.boundaries).toEqual([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
    // Seconds, not milliseconds: one request in process takes well under one.
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(1);
  });
});

describe('petstore.refusals', () => {
  it('counts a 401 as unauthorized', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    expect((await fetch(`${origin}/v1/pets`)).status).toBe(401);
    expect((await fetch(`${origin}/v1/pets`, { headers: { authorization: 'Bearer not-a-key-0123456789' } })).status).toBe(401);
    const points = await sdk.pointsOf('petstore.refusals');
    expect(points.map(({ unit, attributes, value }) => ({ unit, attributes, value }))).toEqual([
      { unit: '{request}', attributes: { 'petstore.refusal.reason': 'unauthorized' }, value: 2 },
    ]);
  });

  it('counts a 429 over the minute quota as minute', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: { perMinute: 1, perDay: 100 } }, now: () => NOW });
    for (const status of [200, 429, 429]) expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(status);
    const points = await sdk.pointsOf('petstore.refusals');
    expect(points.map(({ attributes, value }) => [attributes, value])).toEqual([[{ 'petstore.refusal.reason': 'minute' }, 2]]);
  });

  it('counts a 429 over the day quota as day', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: { perMinute: 10, perDay: 1 } }, now: () => NOW });
    for (const status of [200, 429]) expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(status);
    const points = await sdk.pointsOf('petstore.refusals');
    expect(points.map(({ attributes, value }) => [attributes, value])).toEqual([[{ 'petstore.refusal.reason': 'day' }, 1]]);
  });
});

describe('petstore.bans', () => {
  it('goes to 1 when a caller is banned, and each request refused while banned counts as a ban refusal', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: { perMinute: 1, perDay: 100 } }, banThreshold: 0, banHoldMs: 0, now: () => NOW });
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(200);
    expect((await sdk.pointsOf('petstore.bans')).map((point) => point.value)).toEqual([0]);
    // The first refusal is over a threshold of 0: the ban starts with it.
    for (let i = 0; i < 3; i++) expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(429);
    const bans = await sdk.pointsOf('petstore.bans');
    expect(bans.map(({ unit, attributes, value }) => ({ unit, attributes, value }))).toEqual([{ unit: '{ban}', attributes: {}, value: 1 }]);
    const spans = await sdk.serverSpans();
    expect(spans.map((span) => span.attributes['petstore.rate_limit'])).toEqual(['admitted', 'ban', 'ban', 'ban']);
    const refusals = await sdk.pointsOf('petstore.refusals');
    expect(refusals.map(({ attributes, value }) => [attributes, value])).toEqual([[{ 'petstore.refusal.reason': 'ban' }, 3]]);
  });
});

describe('petstore.ban_holds', () => {
  it("counts a banned caller's answer held as held, one sent at once past maxHeldBans as full, and each span says how long it was held", async () => {
    const sdk = testSdk();
    const settings = { apiKeys: { [KEY]: { perMinute: 1, perDay: 100 } }, banThreshold: 0, banHoldMs: 1_000, maxHeldBans: 1, now: () => NOW };
    const origin = await storeOverHttp(sdk, settings);
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(200);
    // Two banned requests at once: one waits its second, the other finds the one place taken.
    const banned = await Promise.all([fetch(`${origin}/v1/pets`, { headers: auth }), fetch(`${origin}/v1/pets`, { headers: auth })]);
    expect(banned.map((response) => response.status)).toEqual([429, 429]);
    const holds = await sdk.pointsOf('petstore.ban_holds');
    expect(holds.map(({ unit, attributes, value }) => ({ unit, attributes, value }))).toEqual(
      expect.arrayContaining([
        { unit: '{request}', attributes: { 'petstore.ban_hold.outcome': 'held' }, value: 1 },
        { unit: '{request}', attributes: { 'petstore.ban_hold.outcome': 'full' }, value: 1 },
      ]),
    );
    expect(holds).toHaveLength(2);
    const spans = await sdk.serverSpans();
    expect(spans.map((span) => span.attributes['petstore.ban.held_ms']).sort()).toEqual([0, 1_000, undefined]);
  });
});

describe('petstore.pets', () => {
  it('is the number of pets stored, from the storage count', async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
    // A first request makes the instruments; the gauge then counts the empty store.
    await fetch(`${origin}/v1/pets`, { headers: auth });
    expect((await sdk.pointsOf('petstore.pets')).map(({ unit, value }) => ({ unit, value }))).toEqual([{ unit: '{pet}', value: 0 }]);
    for (const name of ['Rex', 'Tom']) {
      await fetch(`${origin}/v1/pets`, { method: 'POST', headers: json, body: JSON.stringify({ name, categoryId: 1 }) });
    }
    expect((await sdk.pointsOf('petstore.pets')).map((point) => point.value)).toEqual([2]);
  });

  it('sums the storages of every store one openTelemetry() serves, each storage once', async () => {
    const sdk = testSdk();
    const telemetry = telemetryOn(sdk);
    const shared = memoryPetStorage();
    const first = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' }, storage: shared }, telemetry);
    await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' }, storage: shared }, telemetry);
    const other = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } }, telemetry);
    await fetch(`${first}/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' });
    await fetch(`${other}/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Tom","categoryId":1}' });
    expect((await sdk.pointsOf('petstore.pets')).map((point) => point.value)).toEqual([2]);
    // Both servers' requests in one histogram.
    const durations = await sdk.pointsOf('http.server.request.duration');
    expect(durations.map((point) => (point.value as { count: number }).count)).toEqual([2]);
  });

  it('is not reported for a storage that cannot count', async () => {
    const sdk = testSdk();
    const { count: _, ...uncounted } = memoryPetStorage();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' }, storage: uncounted });
    await fetch(`${origin}/v1/pets`, { headers: auth });
    expect(await sdk.pointsOf('petstore.pets')).toEqual([]);
  });
});
