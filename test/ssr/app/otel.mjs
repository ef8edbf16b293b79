// @ts-check
/** The app's telemetry, loaded before it (`node --import ./otel.mjs server.mjs`): the OpenTelemetry Node SDK with its http and undici instrumentations and the default propagators (W3C tracecontext and baggage). */
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * Spans are recorded and dropped: this app ships them nowhere. A real one would pass an exporter;
 * without any processor, reader or log processor, the SDK would export to an OTLP collector on
 * localhost by default.
 *
 * @type {import('@opentelemetry/sdk-node').tracing.SpanProcessor}
 */
const dropSpans = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };

const sdk = new NodeSDK({
  serviceName: 'pet-shop',
  instrumentations: [new HttpInstrumentation(), new UndiciInstrumentation()],
  spanProcessors: [dropSpans],
  metricReaders: [],
  logRecordProcessors: [],
});
sdk.start();
process.once('SIGTERM', () => sdk.shutdown().finally(() => process.exit(0)));
