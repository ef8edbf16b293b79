/** openTelemetry() with no options, on the providers an application registers globally (as the Node SDK does), even after the store was made; and no telemetry without the option. */
import { createServer } from 'node:http';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { openTelemetry } from '../../telemetry/index.ts';
import { listenForTest } from '../helpers/server.ts';
import { testSdk, type TestSdk } from './otel.ts';

const KEY = 'global-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };

/** Registers the SDK as an application does: the NodeTracerProvider with its context manager and propagator (W3C trace context and baggage), and the meter provider. */
function registerGlobally(sdk: TestSdk): void {
  (sdk.tracerProvider as NodeTracerProvider).register();
  metrics.setGlobalMeterProvider(sdk.meterProvider);
}

afterEach(() => {
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
});

describe('openTelemetry() with no options', () => {
  it('records through the providers registered globally, even when they were registered after the store was made and had answered', async () => {
    const sdk = testSdk({ node: true });
    const origin = await listenForTest(createServer(createPetStore({ apiKeys: { [KEY]: 'free' }, telemetry: openTelemetry() })));
    // Answered before the application registered anything: nothing to record it.
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(200);
    registerGlobally(sdk);

    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const response = await fetch(`${origin}/v1/pets`, { headers: { ...auth, traceparent: `00-${traceId}-b7ad6b7169203331-01` } });
    expect(response.status).toBe(200);
    const spans = await sdk.serverSpans();
    expect(spans.map((span) => [span.name, span.spanContext().traceId, span.parentSpanContext?.spanId])).toEqual([
      ['GET /v1/pets', traceId, 'b7ad6b7169203331'],
    ]);
    const durations = await sdk.pointsOf('http.server.request.duration');
    expect(durations.map((point) => point.attributes)).toEqual([{ 'http.request.method': 'GET', 'http.route': '/v1/pets', 'http.response.status_code': 200 }]);
  });

  it('records nothing, and answers as ever, while no provider is registered', async () => {
    const sdk = testSdk({ node: true });
    const origin = await listenForTest(createServer(createPetStore({ apiKeys: { [KEY]: 'free' }, telemetry: openTelemetry() })));
    expect((await fetch(`${origin}/v1/pets`, { headers: { ...auth, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } })).status).toBe(
      200,
    );
    expect(await sdk.spans()).toEqual([]);
    expect(await sdk.points()).toEqual([]);
  });
});

describe('createPetStore() without the telemetry option', () => {
  it('makes no span and no metric, even with providers registered globally', async () => {
    const sdk = testSdk({ node: true });
    registerGlobally(sdk);
    const origin = await listenForTest(createServer(createPetStore({ apiKeys: { [KEY]: 'free' } })));
    expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(200);
    expect(await sdk.spans()).toEqual([]);
    expect(await sdk.pointsOf('http.server.request.duration')).toEqual([]);
  });
});
