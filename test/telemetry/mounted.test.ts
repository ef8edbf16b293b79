/** The SERVER span of a store mounted in Express on a dual-stack socket, as docs/observability.md wires it: the path the client sent, and the caller's IPv4 address as IPv4. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { listenForTest } from '../helpers/server.ts';
import { telemetryOn, testSdk } from './otel.ts';

const KEY = 'telemetry-key-0123456789';

/** `app.use('/api', petstore)` listening on `::`, as `app.listen(8080)` does: IPv4 callers reach it as `::ffff:a.b.c.d`. */
async function mountedUnderApi(sdk: ReturnType<typeof testSdk>): Promise<string> {
  const app = express();
  app.use('/api', createPetStore({ apiKeys: { [KEY]: 'pro' }, onError: () => {}, telemetry: telemetryOn(sdk) }));
  const server = createServer(app);
  await once(server.listen(0, '::'), 'listening');
  return listenForTest(server);
}

describe('a store mounted in Express', () => {
  it('records url.path as the client sent it, mount prefix included, and http.route as the API names it', async () => {
    const sdk = testSdk();
    const origin = await mountedUnderApi(sdk);
    expect((await fetch(`${origin}/api/v1/pets/7?limit=1`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(404);
    expect((await fetch(`${origin}/api/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    const spans = await sdk.serverSpans();
    expect(spans.map((span) => [span.name, span.attributes['url.path'], span.attributes['http.route']])).toEqual([
      ['GET /v1/pets/{petId}', '/api/v1/pets/7', '/v1/pets/{petId}'],
      ['GET /v1/pets', '/api/v1/pets', '/v1/pets'],
    ]);
  });

  it('records client.address as plain IPv4 for a caller the dual-stack socket reports as ::ffff:127.0.0.1', async () => {
    const sdk = testSdk();
    const origin = await mountedUnderApi(sdk);
    expect((await fetch(`${origin}/api/v1/pets`)).status).toBe(401);
    const [span] = await sdk.serverSpans();
    expect(span!.attributes['client.address']).toBe('127.0.0.1');
  });
});
