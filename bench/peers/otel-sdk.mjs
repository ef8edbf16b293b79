// An OpenTelemetry SDK as an application registers one, for bench/telemetry.mjs: every span recorded and batched, then dropped; every metric aggregated, never read.
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** A span exporter that drops what it is given: the cost measured is recording, not sending. */
const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };

/** A reader nothing calls: the instruments aggregate as under any reader, and nothing is exported. */
class IdleReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

/** Registers the tracer provider (with W3C propagation and async context) and the meter provider globally. */
export function registerSdk() {
  new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }).register();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new IdleReader()] }));
}
