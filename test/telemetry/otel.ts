/** What the telemetry suites share: the OpenTelemetry SDK keeping spans and metrics in memory, read back on demand, and a Pet Store over node:http recording to it. */
import { createServer } from 'node:http';
import { context, type Attributes, type AttributeValue } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll } from 'vitest';
import { createPetStore, type PetStoreOptions } from '../../compose/index.ts';
import { openTelemetry, type Telemetry } from '../../telemetry/index.ts';
import { listenForTest } from '../helpers/server.ts';

/** A reader that exports nothing by itself: the test collects when it wants to look. */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/**
 * One metric data point, flattened: its instrument's name and unit, its attributes, its value (a histogram's is an object).
 *
 * @example
 * const point: Point = { name: 'petstore.pets', unit: '{pet}', attributes: {}, value: 2 };
 */
export interface Point {
  readonly name: string;
  readonly unit: string;
  readonly attributes: Attributes;
  readonly value: unknown;
}

/**
 * An SDK of the test's own: explicit providers, none of them registered globally.
 *
 * @example
 * const sdk: TestSdk = testSdk();
 * expect((await sdk.serverSpans()).map((span) => span.name)).toEqual(['GET /v1/pets']);
 */
export interface TestSdk {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly propagator: W3CTraceContextPropagator;
  /** Every span ended so far, in the order they ended. */
  spans(): Promise<ReadableSpan[]>;
  /** The SERVER spans (kind 1) ended so far. */
  serverSpans(): Promise<ReadableSpan[]>;
  /** Every metric data point, collected now. */
  points(): Promise<Point[]>;
  /** The points of one instrument. */
  pointsOf(name: string): Promise<Point[]>;
}

/**
 * A fresh SDK: spans to an in-memory exporter through a SimpleSpanProcessor (of a
 * NodeTracerProvider, which can register itself, with `node`), metrics to a reader collected on
 * demand, the W3C trace-context propagator.
 *
 * @example
 * const sdk = testSdk();
 * const telemetry = openTelemetry(sdk);
 */
export function testSdk({ node = false }: { node?: boolean } = {}): TestSdk {
  const exporter = new InMemorySpanExporter();
  const Provider = node ? NodeTracerProvider : BasicTracerProvider;
  const tracerProvider = new Provider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const spans = async () => {
    await tracerProvider.forceFlush();
    return exporter.getFinishedSpans();
  };
  const points = async () => {
    const { resourceMetrics, errors } = await reader.collect();
    if (errors.length > 0) throw errors[0];
    return resourceMetrics.scopeMetrics.flatMap(({ metrics }) =>
      metrics.flatMap(({ descriptor, dataPoints }) =>
        (dataPoints as { attributes: Attributes; value: unknown }[]).map(({ attributes, value }) => ({
          name: descriptor.name,
          unit: descriptor.unit,
          attributes,
          value,
        })),
      ),
    );
  };
  return {
    tracerProvider,
    meterProvider,
    propagator: new W3CTraceContextPropagator(),
    spans,
    serverSpans: async () => (await spans()).filter((span) => span.kind === 1),
    points,
    pointsOf: async (name) => (await points()).filter((point) => point.name === name),
  };
}

/**
 * The API's context manager for the file, as an application registers one (NodeTracerProvider's
 * register() and the Node SDK do): without it nothing is current, and a storage's span has no parent.
 *
 * @example
 * useContextManager(); // at the top of a test file
 */
export function useContextManager(): void {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });
}

/**
 * `openTelemetry()` on the test's SDK.
 *
 * @example
 * const telemetry = telemetryOn(sdk);
 */
export function telemetryOn({ tracerProvider, meterProvider, propagator }: TestSdk): Telemetry {
  return openTelemetry({ tracerProvider, meterProvider, propagator });
}

/**
 * `createServer(createPetStore({ ...options, telemetry }))` on a free port, closed after the test;
 * its origin. The telemetry is a new `openTelemetry()` on the SDK unless given.
 *
 * @example
 * const origin = await storeOverHttp(sdk, { apiKeys: { [KEY]: 'pro' } });
 */
export async function storeOverHttp(sdk: TestSdk, options: PetStoreOptions = {}, telemetry = telemetryOn(sdk)): Promise<string> {
  return listenForTest(createServer(createPetStore({ onError: () => {}, ...options, telemetry })));
}

/**
 * Every text telemetry recorded: span names, every attribute name and value of every span and data point, and the metrics' names.
 *
 * @example
 * expect((await everythingRecorded(sdk)).filter((text) => text.includes(KEY))).toEqual([]);
 */
export async function everythingRecorded(sdk: TestSdk): Promise<string[]> {
  const texts = (attributes: Attributes) => Object.values(attributes).flatMap((value: AttributeValue | undefined) => [String(value)]);
  const spans = await sdk.spans();
  const points = await sdk.points();
  return [
    ...spans.flatMap((span) => [span.name, ...Object.keys(span.attributes), ...texts(span.attributes), span.status.message ?? '']),
    ...points.flatMap((point) => [point.name, ...Object.keys(point.attributes), ...texts(point.attributes)]),
  ];
}
