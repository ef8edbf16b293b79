/** petstore-service/opentelemetry: the store's traces and metrics through the OpenTelemetry API, for `createPetStore({ telemetry })`. */
import { propagation, ProxyTracerProvider, trace, type MeterProvider, type TextMapPropagator, type TracerProvider } from '@opentelemetry/api';
import { assertKnownOptions, type LimitStore, type PetStorage, type StoreDatabase, type StoreTelemetry, type Telemetry } from '../src/index.ts';
import { Meters } from './metrics.ts';
import { beginRequest, type RequestTelemetry } from './request-span.ts';
import { SCOPE, VERSION } from './scope.ts';
import { tracedLimitStore, tracedPetStorage } from './storage-spans.ts';

export type { Telemetry } from '../src/index.ts';

/**
 * Where `openTelemetry()` sends spans and metrics, and how it reads a caller's trace context. Each
 * defaults to what the application registered globally (`trace`, `metrics`, `propagation` of
 * `@opentelemetry/api`), looked up when used, so a provider registered later still counts.
 *
 * @example
 * const options: OpenTelemetryOptions = { tracerProvider, meterProvider, propagator: new W3CTraceContextPropagator() };
 */
export interface OpenTelemetryOptions {
  /** Where the spans go. Default: the global tracer provider (none registered: no spans). */
  readonly tracerProvider?: TracerProvider;
  /** Where the metrics go. Default: the global meter provider (none registered: no metrics). */
  readonly meterProvider?: MeterProvider;
  /** Reads the caller's trace context from the request's headers (`traceparent`). Default: the global propagator. */
  readonly propagator?: TextMapPropagator;
}

const OPTION_NAMES = ['tracerProvider', 'meterProvider', 'propagator'] as const;

/** What each option must have: the one method it is used by. */
const REQUIRED_METHOD: Record<(typeof OPTION_NAMES)[number], [method: string, what: string]> = {
  tracerProvider: ['getTracer', 'a TracerProvider (NodeTracerProvider, BasicTracerProvider)'],
  meterProvider: ['getMeter', 'a MeterProvider (from @opentelemetry/sdk-metrics)'],
  propagator: ['extract', 'a TextMapPropagator (W3CTraceContextPropagator)'],
};

/**
 * The `telemetry` option of `createPetStore`: each request as one SERVER span named `METHOD route`
 * (`GET /v1/pets/{petId}`), continuing the caller's `traceparent`, with the HTTP semantic
 * conventions' attributes and `petstore.plan` and `petstore.rate_limit`; the calls to a database
 * (PostgreSQL, Redis) as child CLIENT spans; the `http.server.request.duration` histogram, the
 * `petstore.refusals` counter, and the `petstore.bans` and `petstore.pets` gauges. No key is ever
 * in a name or an attribute: the path is redacted, and everything else is the server's own text.
 *
 * Options are checked now: an unknown one, or one that is not what it names, is a `TypeError`.
 * `@opentelemetry/api` is an optional peer dependency: install it (and an SDK) to use this entry.
 * Without a registered provider the store records nothing and pays almost nothing. Child spans
 * need a context manager registered (`NodeTracerProvider#register()` and the Node SDK do it).
 *
 * One value may serve several stores: their spans are alike, their durations and refusals add up,
 * `petstore.bans` counts the bans any of them started, and `petstore.pets` sums their storages'
 * counts (two storages over one database count its pets twice: give such stores one storage, or
 * each its own `openTelemetry()` on its own meter provider).
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createPetStore } from 'petstore-service';
 * import { openTelemetry } from 'petstore-service/opentelemetry';
 * // With the Node SDK started first (or any registered tracer and meter provider):
 * createServer(createPetStore({ apiKeys: { 'my-key': 'free' }, telemetry: openTelemetry() })).listen(8080);
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  assertKnownOptions(options, OPTION_NAMES, 'openTelemetry');
  for (const name of OPTION_NAMES) {
    const value = options[name] as unknown;
    const [method, what] = REQUIRED_METHOD[name];
    if (value !== undefined && typeof (value as Record<string, unknown> | null)?.[method] !== 'function') {
      throw new TypeError(`openTelemetry: ${name} must be ${what}, with a ${method}() method`);
    }
  }
  // The API's global tracer provider is a proxy: its tracer starts recording once a provider is registered.
  const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
  const tracer = tracerProvider.getTracer(SCOPE, VERSION);
  const meters = new Meters(options.meterProvider);
  // The `propagation` API itself reads through whichever propagator is registered when a request comes.
  const request: RequestTelemetry = { tracer, tracing: tracingOf(tracerProvider), propagator: options.propagator ?? propagation, meters };
  const begin: StoreTelemetry['begin'] = (arrived) => beginRequest(request, arrived);
  return {
    forStore({ storage, limitStore }) {
      meters.watchPets(storage);
      // A store in the process (memory, IndexedDB) is handed back as it is: no span per call, no cost.
      return {
        storage: hasDatabase(storage) ? tracedPetStorage(storage, tracer) : storage,
        limitStore: hasDatabase(limitStore) ? tracedLimitStore(limitStore, tracer) : limitStore,
        begin,
      };
    },
  };
}

/**
 * Whether `provider` may record, asked per request: false only while it is the API's global proxy
 * with nothing registered behind it (its delegate is then the API's one no-op provider); a provider
 * registered later answers true from then on.
 */
function tracingOf(provider: TracerProvider): () => boolean {
  if (!(provider instanceof ProxyTracerProvider)) return () => true;
  const unregistered = new ProxyTracerProvider().getDelegate();
  return () => provider.getDelegate() !== unregistered;
}

/** Whether a store keeps its data in a database server, whose calls are worth a span each. */
function hasDatabase<Store extends PetStorage | LimitStore>(store: Store): store is Store & { readonly database: StoreDatabase } {
  return store.database !== undefined;
}
