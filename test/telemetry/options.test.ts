/** openTelemetry()'s options, checked when it is called, and what it does to a store's storages: a memory store as it is, a database's calls traced. */
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import { createPetStore, type LimitStore, type PetStorage } from '../../compose/index.ts';
import { memoryLimitStore, memoryPetStorage } from '../../stores/memory/index.ts';
import { openTelemetry } from '../../telemetry/index.ts';
import { telemetryOn, testSdk } from './otel.ts';

describe('openTelemetry() options', () => {
  it('names an unknown option, the nearest known one and all of them', () => {
    expect(() => openTelemetry({ tracerprovider: {} } as never)).toThrow(
      new TypeError(
        'openTelemetry: unknown option "tracerprovider" (did you mean "tracerProvider"?); the options are tracerProvider, meterProvider, propagator',
      ),
    );
  });

  it('names an option that is not what it says', () => {
    expect(() => openTelemetry({ tracerProvider: {} as never })).toThrow(/^openTelemetry: tracerProvider must be a TracerProvider .*getTracer\(\)/);
    expect(() => openTelemetry({ meterProvider: 'global' as never })).toThrow(/^openTelemetry: meterProvider must be a MeterProvider .*getMeter\(\)/);
    expect(() => openTelemetry({ propagator: null as never })).toThrow(/^openTelemetry: propagator must be a TextMapPropagator .*extract\(\)/);
    expect(() => openTelemetry(null as never)).toThrow(new TypeError('openTelemetry: options must be an object'));
  });

  it('takes real providers and a propagator, and no options at all', () => {
    const { tracerProvider, meterProvider } = testSdk();
    expect(() => openTelemetry({ tracerProvider, meterProvider, propagator: new W3CTraceContextPropagator() })).not.toThrow();
    expect(() => openTelemetry()).not.toThrow();
    expect(() => createPetStore({ telemetry: openTelemetry() })).not.toThrow();
  });
});

describe('forStore()', () => {
  it('hands back storages kept in the process as they are: a memory store pays nothing per call', () => {
    const storage = memoryPetStorage();
    const limitStore = memoryLimitStore();
    const parts = telemetryOn(testSdk()).forStore({ storage, limitStore });
    expect(parts.storage).toBe(storage);
    expect(parts.limitStore).toBe(limitStore);
  });

  it('wraps the storages of a database, keeping their database and ping', async () => {
    const database = { system: 'redis', name: 'Redis' };
    const pings: string[] = [];
    const storage: PetStorage = { ...memoryPetStorage(), database, ping: async () => void pings.push('pets') };
    const limitStore: LimitStore = { ...memoryLimitStore(), database, ping: async () => void pings.push('limits') };
    const sdk = testSdk();
    const parts = telemetryOn(sdk).forStore({ storage, limitStore });
    expect(parts.storage).not.toBe(storage);
    expect(parts.storage.database).toBe(database);
    expect(parts.limitStore.database).toBe(database);
    await parts.storage.ping!();
    await parts.limitStore.ping!();
    expect(pings).toEqual(['pets', 'limits']);
    // A readiness probe is not traced; a call is, even outside a request (a root span then).
    expect(await sdk.spans()).toEqual([]);
    expect(await parts.storage.count!()).toBe(0);
    expect((await sdk.spans()).map((span) => [span.name, span.attributes['db.system.name']])).toEqual([['count pets', 'redis']]);
  });

  it('tells the access log the trace id of a request it records, the one the caller sent', async () => {
    const sdk = testSdk();
    const parts = telemetryOn(sdk).forStore({ storage: memoryPetStorage(), limitStore: memoryLimitStore() });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const observation = parts.begin(new Request('https://x/v1/pets', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } }));
    expect(observation?.traceId).toBe(traceId);
    observation!.end({ path: '/v1/pets', status: 200, notes: {}, clientAddress: undefined, ms: 1 });
    expect((await sdk.serverSpans()).map((span) => [span.name, span.attributes['url.scheme']])).toEqual([['GET', 'https']]);
  });

  it('opens no observation for a request while nothing records: the host runs it as without telemetry', () => {
    const parts = openTelemetry().forStore({ storage: memoryPetStorage(), limitStore: memoryLimitStore() });
    expect(parts.begin(new Request('http://x/v1/pets'))).toBeUndefined();
    // Nor when the caller sent a trace: no propagator is registered to read it, and no tracer to continue it.
    const traced = new Request('http://x/v1/pets', { headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } });
    expect(parts.begin(traced)).toBeUndefined();
  });
});
