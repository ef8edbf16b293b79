/**
 * The command's telemetry: `--metrics` (Prometheus text at `GET /metrics` on the API's port, from
 * a MeterProvider of the command's own) and the spans of an OpenTelemetry SDK the user loads with
 * `node --import`. Every OpenTelemetry package is imported by a name the bundler cannot follow, so
 * the command runs without them, and needs them only for what uses them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MeterProvider as ApiMeterProvider } from '@opentelemetry/api';
import type { MetricReader, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { NodeFront } from '../compose/compose.ts';
import { ApiError, errorReply, wireReply, type Telemetry } from '../src/index.ts';
import { SCOPE, VERSION } from '../telemetry/scope.ts';
import { declaresBody, metricsAccess, type MetricsAccessSettings, type ScrapeRuling } from './metrics-access.ts';

/** What `--metrics` needs, in the order they are loaded: the API, the SDK, its Prometheus exporter, Node's process metrics. */
export const METRICS_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/exporter-prometheus',
  '@opentelemetry/host-metrics',
] as const;

/** Where Prometheus scrapes: the exact path, with or without a query. */
export const METRICS_PATH = '/metrics';

/** The text exposition format Prometheus reads (version 0.0.4). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A package the command cannot load: the command prints the message as its one line and exits 2. */
export class MissingPackages extends Error {}

/**
 * The one line that names what to install for a flag, every missing package at once, ready for
 * `npm install`.
 *
 * @example
 * installLine(['@opentelemetry/sdk-metrics'], '--metrics'); // 'install @opentelemetry/sdk-metrics to use --metrics'
 */
export function installLine(packages: readonly string[], flag: string): string {
  return `install ${packages.join(' ')} to use ${flag}`;
}

/**
 * The package an import failed to find, when that is why it failed: the one imported, or one it
 * imports in turn, by `import` (`Cannot find package '@opentelemetry/api' imported from …`) or by
 * `require` in a CommonJS package (`Cannot find module '@opentelemetry/core'`); none for a missing
 * file, which no install brings.
 */
export function missingPackage(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as NodeJS.ErrnoException;
  const pattern =
    code === 'ERR_MODULE_NOT_FOUND'
      ? /^Cannot find package '((?:@[^/']+\/)?[^/']+)/
      : code === 'MODULE_NOT_FOUND'
        ? /^Cannot find module '((?:@[^/.'][^/']*\/)?[^/.'][^/']*)/
        : undefined;
  return pattern?.exec(String(message))?.[1];
}

/** Imports every package by its name (never followed by the bundler); any missing is named in one {@link MissingPackages}. */
async function importAll(names: readonly string[], flag: string): Promise<unknown[]> {
  const loaded = await Promise.allSettled(names.map((name) => import(name)));
  const missing = new Set<string>();
  for (const result of loaded) {
    if (result.status === 'fulfilled') continue;
    const name = missingPackage(result.reason);
    if (name === undefined) throw result.reason;
    missing.add(name);
  }
  if (missing.size > 0) throw new MissingPackages(installLine([...missing], flag));
  return loaded.map((result) => (result as PromiseFulfilledResult<unknown>).value);
}

/** OpenTelemetry's units as the suffix of a Prometheus name (OpenTelemetry's Prometheus compatibility rules), for the units these metrics have. */
const UNIT_SUFFIXES: Readonly<Record<string, string>> = { s: 'seconds', By: 'bytes', '1': 'ratio' };
/** Units @opentelemetry/host-metrics leaves out of its descriptors (its descriptions say them). */
const MISSING_UNITS: Readonly<Record<string, string>> = { 'process.memory.usage': 'By', 'process.cpu.utilization': '1' };

/**
 * The metrics with their Prometheus names: the unit as a suffix (`http_server_request_duration_seconds`,
 * `process_memory_usage_bytes`), which this exporter does not add, and no `# UNIT` line, which the
 * 0.0.4 text format does not have.
 */
function withPrometheusNames(resourceMetrics: ResourceMetrics): ResourceMetrics {
  return {
    ...resourceMetrics,
    scopeMetrics: resourceMetrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map((metric) => {
        const { name, unit } = metric.descriptor;
        const suffix = UNIT_SUFFIXES[unit || (MISSING_UNITS[name] ?? '')];
        const named = suffix && !name.endsWith(`_${suffix}`) ? `${name}_${suffix}` : name;
        return { ...metric, descriptor: { ...metric.descriptor, name: named, unit: '' } };
      }),
    })),
  };
}

/** The metrics `--metrics` serves, and where they come from. */
export interface CommandMetrics {
  /** The command's own MeterProvider, handed to the store's telemetry; never registered globally. */
  readonly meterProvider: ApiMeterProvider;
  /**
   * Answers a request for {@link METRICS_PATH} on node:http in front of the store (the composition
   * root's `front`): the text for GET and HEAD, a JSON 405 for any other method, a JSON 413 for a
   * declared body (unread), and the 429 or 401 of metrics-access.ts for a scrape past its
   * address's budget or without the token. A scrape never reaches the store, so it needs no API
   * key, spends no caller's budget (it has its own), and is neither counted in the metrics nor
   * written to the access log. Any other request is left to the store.
   */
  readonly front: NodeFront;
}

/**
 * Opens `--metrics`: a MeterProvider of the command's own, read by a Prometheus exporter that
 * starts no server of its own (the command answers `/metrics` on the API's port), with Node's
 * process metrics (CPU time and utilization, memory) from @opentelemetry/host-metrics. The
 * provider is not registered globally: an SDK the user loads with `node --import` keeps its own.
 * A missing package is a {@link MissingPackages} naming each one.
 *
 * The scrape has no `otel_scope_*` labels, so the histogram's labels are exactly its attributes,
 * and no `target_info`: it would carry only the SDK's name and version, which Prometheus's own
 * `job` and `instance` labels make useless.
 */
async function openMetrics(access: MetricsAccessSettings, onError: (error: unknown) => void): Promise<CommandMetrics> {
  const [, sdk, prometheus, host] = (await importAll(METRICS_PACKAGES, '--metrics')) as [
    typeof import('@opentelemetry/api'),
    typeof import('@opentelemetry/sdk-metrics'),
    typeof import('@opentelemetry/exporter-prometheus'),
    typeof import('@opentelemetry/host-metrics'),
  ];
  const options = { preventServerStart: true, withoutScopeInfo: true, withoutTargetInfo: true };
  const exporter = new prometheus.PrometheusExporter(options);
  const serializer = new prometheus.PrometheusSerializer(undefined, false, undefined, options.withoutTargetInfo, options.withoutScopeInfo);
  // The duration's buckets are the histogram's own advice (seconds, as the conventions give them).
  const meterProvider = new sdk.MeterProvider({ readers: [exporter as MetricReader] });
  new host.HostMetrics({ meterProvider, name: SCOPE, metricGroups: ['process.cpu', 'process.memory'] }).start();
  const scrape = async () => {
    const { resourceMetrics, errors } = await exporter.collect();
    for (const error of errors) onError(error);
    return `${serializer.serialize(withPrometheusNames(resourceMetrics)).trimEnd()}\n`;
  };
  const admit = metricsAccess(access);
  const front: NodeFront = (req, res) => {
    // The store's node:http branch hands its front node:http's own request and response.
    const [request, response] = [req, res] as [IncomingMessage, ServerResponse];
    if (!isMetricsTarget(request.url)) return false;
    answerScrape(request, response, { scrape, admit, onError });
    return true;
  };
  return { meterProvider, front };
}

/** `/metrics` takes GET and HEAD: the other methods are told so, as the API tells them. */
const notAllowed = (method: string) =>
  new ApiError({
    status: 405,
    code: 'method_not_allowed',
    message: `${method} is not allowed here; use GET, HEAD.`,
    headers: { Allow: 'GET, HEAD' },
  });

/** `/metrics` takes no body: one declared is refused unread, and the connection closed rather than read to its end. */
const bodyRefused = () =>
  new ApiError({
    status: 413,
    code: 'payload_too_large',
    message: '/metrics takes no request body; send the request without one.',
    headers: { Connection: 'close' },
  });

/**
 * Writes an error as the API writes one: its JSON body, its headers, and `extra` (the quota
 * headers) under them. What is no ApiError is a 500 whose cause goes to `onError`.
 */
function writeError(res: ServerResponse, error: unknown, head: boolean, onError: (error: unknown) => void, extra: Readonly<Record<string, string>> = {}): void {
  const reply = wireReply(errorReply(error, onError), head);
  const headers: Record<string, string> = { ...extra, ...reply.headers };
  if (reply.body !== null) headers['Content-Length'] = String(Buffer.byteLength(reply.body));
  res.writeHead(reply.status, headers);
  res.end(reply.body ?? undefined);
}

/** What answering a scrape uses: the text, the rule on who may read it, and where unexpected failures go. */
interface ScrapeParts {
  readonly scrape: () => Promise<string>;
  readonly admit: (req: IncomingMessage) => Promise<ScrapeRuling>;
  readonly onError: (error: unknown) => void;
}

function answerScrape(req: IncomingMessage, res: ServerResponse, { scrape, admit, onError }: ScrapeParts): void {
  const method = req.method ?? 'GET';
  const head = method === 'HEAD';
  // A declared body is never read: the answer closes the connection, and node:http drops the rest
  // with it, where reading it to keep the connection would take a gigabyte if sent one.
  const withBody = declaresBody(req);
  if (method !== 'GET' && !head) {
    writeError(res, notAllowed(method), false, onError, withBody ? { Connection: 'close' } : {});
    return;
  }
  if (withBody) {
    writeError(res, bodyRefused(), head, onError);
    return;
  }
  admit(req)
    .then(async ({ headers, refusal }) => {
      if (refusal) return writeError(res, refusal, head, onError, headers);
      const text = await scrape();
      res.writeHead(200, { ...headers, 'Content-Type': METRICS_CONTENT_TYPE, 'Content-Length': String(Buffer.byteLength(text)), 'Cache-Control': 'no-store' });
      res.end(head ? undefined : text);
    })
    .catch((error: unknown) => writeError(res, error, head, onError));
}

/** Whether a node:http request target is the metrics path: `/metrics`, with or without a query. */
export function isMetricsTarget(target: string | undefined): boolean {
  if (!target?.startsWith(METRICS_PATH)) return false;
  const rest = target.slice(METRICS_PATH.length);
  return rest === '' || rest.startsWith('?');
}

/**
 * What the command reports through, for its flags: with `--metrics`, its own metrics (a package it
 * cannot load is a {@link MissingPackages}), and the store's telemetry when anything would record.
 *
 * @example
 * const { metrics, telemetry } = await openCommandTelemetry(settings, onError);
 */
export async function openCommandTelemetry(
  settings: MetricsAccessSettings & { readonly metrics: boolean },
  onError: (error: unknown) => void,
): Promise<{ readonly metrics: CommandMetrics | undefined; readonly telemetry: Telemetry | undefined }> {
  const metrics = settings.metrics ? await openMetrics(settings, onError) : undefined;
  return { metrics, telemetry: await commandTelemetry(metrics?.meterProvider) };
}

/**
 * The store's telemetry for the command: when @opentelemetry/api is installed and something would
 * record (a tracer or meter provider the user registered, with an SDK loaded by `node --import`,
 * or the command's own MeterProvider from `--metrics`), what `openTelemetry()` makes of the global
 * providers and propagator, with the command's MeterProvider in place of the global one. Otherwise
 * none, and no error: the API is often installed for another package's sake, and with nothing
 * registered every request would still open and end an observation that records nothing. The
 * telemetry module is imported only when used, so the command never needs the API otherwise.
 */
async function commandTelemetry(meterProvider?: ApiMeterProvider): Promise<Telemetry | undefined> {
  const name = METRICS_PACKAGES[0];
  let api: typeof import('@opentelemetry/api');
  try {
    api = await import(name);
  } catch (error) {
    if (missingPackage(error) === name) return undefined;
    throw error;
  }
  if (!meterProvider && !registered(api)) return undefined;
  const { openTelemetry } = await import('../telemetry/index.ts');
  return openTelemetry(meterProvider ? { meterProvider } : undefined);
}

/**
 * Whether an application registered a tracer provider or a meter provider with the API. The global
 * tracer provider is always the API's proxy, whose delegate is the API's no-op until one is
 * registered; the global meter provider hands out the API's one no-op meter until one is. The
 * meter asked for is the one the store's telemetry uses (its scope and version), so asking adds
 * nothing to a real provider.
 */
function registered(api: typeof import('@opentelemetry/api')): boolean {
  const tracerProvider = api.trace.getTracerProvider() as Partial<InstanceType<typeof api.ProxyTracerProvider>>;
  const tracing = typeof tracerProvider.getDelegate !== 'function' || tracerProvider.getDelegate() !== new api.ProxyTracerProvider().getDelegate();
  const metering = api.metrics.getMeterProvider().getMeter(SCOPE, VERSION) !== api.createNoopMeter();
  return tracing || metering;
}
