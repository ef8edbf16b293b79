/** The names telemetry records under: OpenTelemetry's HTTP and database semantic conventions, and the package's own. */
import { SpanKind, type SpanOptions } from '@opentelemetry/api';
import type { Plan } from '../src/index.ts';

/**
 * Attribute names, as the semantic conventions spell them (HTTP and database: stable since 1.26
 * and 1.33), then the package's own under `petstore.`.
 *
 * @example
 * span.setAttribute(ATTRIBUTE.route, '/v1/pets/{petId}'); // http.route
 */
export const ATTRIBUTE = {
  method: 'http.request.method',
  route: 'http.route',
  statusCode: 'http.response.status_code',
  urlPath: 'url.path',
  urlScheme: 'url.scheme',
  clientAddress: 'client.address',
  errorType: 'error.type',
  dbSystem: 'db.system.name',
  dbOperation: 'db.operation.name',
  dbCollection: 'db.collection.name',
  plan: 'petstore.plan',
  rateLimit: 'petstore.rate_limit',
  refusalReason: 'petstore.refusal.reason',
  banHeldMs: 'petstore.ban.held_ms',
  banHoldOutcome: 'petstore.ban_hold.outcome',
} as const;

/**
 * Metric names, as the semantic conventions spell them, then the package's own.
 *
 * @example
 * meter.createHistogram(METRIC.duration, { unit: 's' }); // http.server.request.duration
 */
export const METRIC = {
  duration: 'http.server.request.duration',
  refusals: 'petstore.refusals',
  bans: 'petstore.bans',
  banHolds: 'petstore.ban_holds',
  pets: 'petstore.pets',
} as const;

/**
 * The conventions' bucket advice for `http.server.request.duration`, in seconds.
 *
 * @example
 * meter.createHistogram(METRIC.duration, { unit: 's', advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] } });
 */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * `error.type` of a request answered by resetting the connection (an injected fault): there is no status code to name.
 *
 * @example
 * span.setAttribute(ATTRIBUTE.errorType, status === 0 ? CONNECTION_RESET : String(status));
 */
export const CONNECTION_RESET = 'connection_reset';

/**
 * The methods the conventions know (RFC 9110 and PATCH). Any other is `_OTHER`: a method is the
 * client's text, and names and labels must not grow with what clients send.
 */
const KNOWN_METHODS = ['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE', '_OTHER'] as const;
const KNOWN = new Set<string>(KNOWN_METHODS);

/**
 * The method as spans and metrics name it: itself when standard (case-sensitive, as the conventions
 * say), else `_OTHER`.
 *
 * @example
 * methodOf('GET'); // 'GET'
 * methodOf('get'); // '_OTHER'
 */
export function methodOf(method: string): string {
  return KNOWN.has(method) ? method : '_OTHER';
}

/**
 * What a SERVER span starts with: made once per method and scheme at load, not per request, so an
 * unrecorded request allocates no options (samplers see these attributes).
 */
const SERVER_START: Record<'http' | 'https', Record<string, SpanOptions>> = { http: {}, https: {} };
for (const scheme of ['http', 'https'] as const) {
  for (const method of KNOWN_METHODS) {
    SERVER_START[scheme][method] = { kind: SpanKind.SERVER, attributes: { [ATTRIBUTE.method]: method, [ATTRIBUTE.urlScheme]: scheme } };
  }
}

/**
 * The options a request's SERVER span starts with, for a method {@link methodOf} gave.
 *
 * @example
 * tracer.startSpan('GET', serverStart('GET', 'https://api.example.com/v1/pets'), parent);
 */
export function serverStart(method: string, url: string): SpanOptions {
  return SERVER_START[url.startsWith('https:') ? 'https' : 'http'][method]!;
}

/**
 * `petstore.plan`: a named plan, or `enterprise` for a quota agreed individually (an attribute is
 * a string, and the quota's numbers would make a label per customer).
 *
 * @example
 * planName('pro'); // 'pro'
 * planName({ perMinute: 100_000, perDay: 10_000_000 }); // 'enterprise'
 */
export function planName(plan: Plan): string {
  return typeof plan === 'string' ? plan : 'enterprise';
}
