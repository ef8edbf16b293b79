/**
 * petstore-service/opentelemetry on a real PostgreSQL (a throwaway cluster, see postgres-server.ts):
 * the SQL stores' calls are CLIENT spans below the request's SERVER span, and the pets gauge
 * reads the database. The same over PGlite, without a server: ../telemetry/spans.test.ts.
 */
// @module-tag postgres (skipped without PostgreSQL, failed under CI: test/helpers/system-parts.ts)
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, postgresClient, sqlLimitStore, sqlPetStorage, type SqlClient } from '../../stores/sql/index.ts';
import { storeOverHttp, testSdk, useContextManager } from '../telemetry/otel.ts';
import { startPostgres, type TestPostgres } from './postgres-server.ts';

const KEY = 'postgres-telemetry-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };

let pg: TestPostgres;
let sql: postgres.Sql;
let client: SqlClient;

// initdb, then pg_ctl start, which waits up to 60 s itself.
beforeAll(async () => {
  pg = await startPostgres();
  sql = postgres(await pg.freshDatabase(), { onnotice: () => {} });
  client = postgresClient(sql);
  await migrate(client);
}, 120_000);
// pg_ctl stop waits up to 60 s itself.
afterAll(async () => {
  await sql?.end({ timeout: 1 });
  await pg?.stop();
}, 90_000);

useContextManager();

describe('a Pet Store on PostgreSQL, with openTelemetry()', () => {
  it("shows each call to the database as a CLIENT span whose parent is the request's SERVER span", async () => {
    const sdk = testSdk();
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' }, storage: sqlPetStorage(client), limitStore: sqlLimitStore(client) });
    const created = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'telemetry-create-1' },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect((await fetch(`${origin}/v1/pets/${id}`, { headers: auth })).status).toBe(200);

    const spans = await sdk.spans();
    const servers = spans.filter((span) => span.kind === SpanKind.SERVER);
    expect(servers.map((span) => span.name)).toEqual(['POST /v1/pets', 'GET /v1/pets/{petId}']);
    const children = servers.map((server) =>
      spans
        .filter((span) => span.parentSpanContext?.spanId === server.spanContext().spanId)
        .map((span) => ({
          name: span.name,
          kind: span.kind,
          sameTrace: span.spanContext().traceId === server.spanContext().traceId,
          status: span.status.code,
          system: span.attributes['db.system.name'],
        })),
    );
    const call = (name: string) => ({ name, kind: SpanKind.CLIENT, sameTrace: true, status: SpanStatusCode.UNSET, system: 'postgresql' });
    expect(children).toEqual([
      [call('take limits'), call('createOnce pets')],
      [call('take limits'), call('get pets')],
    ]);
  });

  it('counts the pets in the database for the petstore.pets gauge', async () => {
    const sdk = testSdk();
    const storage = sqlPetStorage(client);
    const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' }, storage, limitStore: sqlLimitStore(client) });
    const body = '{"name":"Tom","categoryId":2}';
    expect((await fetch(`${origin}/v1/pets`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body })).status).toBe(201);
    const stored = await storage.count!();
    expect(stored).toBeGreaterThan(0);
    expect((await sdk.pointsOf('petstore.pets')).map((point) => point.value)).toEqual([stored]);
    // The gauge reads the storage as it is: a scrape is no request, and makes no span.
    expect((await sdk.spans()).filter((span) => span.name === 'count pets')).toEqual([]);
  });
});
