/** Each request's SERVER span: begun with the caller's trace context, current while the request is handled, named and described by its answer. */
import {
  context,
  INVALID_TRACEID,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import ipaddr from 'ipaddr.js';
import type { Answered, ObservedRequest, RequestObservation } from '../src/index.ts';
import { ATTRIBUTE, CONNECTION_RESET, methodOf, planName, serverStart } from './conventions.ts';
import type { Meters } from './metrics.ts';

/**
 * The request's headers as a propagator reads them. A host's request view looks names up in
 * lower case only, and has no list of names: `keys` is empty there (the W3C propagators only `get`).
 */
const HEADERS: TextMapGetter<ObservedRequest> = {
  keys: (request) => {
    const { headers } = request as { headers: Partial<Headers> };
    return typeof headers.keys === 'function' ? [...headers.keys()] : [];
  },
  get: (request, key) => request.headers.get(key.toLowerCase() as Lowercase<string>) ?? undefined,
};

/**
 * Where a request's span comes from and its metrics go: one per `openTelemetry()`.
 *
 * @example
 * const request: RequestTelemetry = { tracer: provider.getTracer(SCOPE), tracing: () => true, propagator: propagation, meters: new Meters(undefined) };
 */
export interface RequestTelemetry {
  readonly tracer: Tracer;
  /** Whether the tracer may record: false while it is the API's global proxy with no provider registered behind it. */
  readonly tracing: () => boolean;
  readonly propagator: Pick<TextMapPropagator, 'extract'>;
  readonly meters: Meters;
}

/**
 * Opens a request's observation: a SERVER span, child of the trace the caller's headers continue,
 * named by the method until the answer says the route. With no provider behind the tracer and
 * none behind the meter, none: the host then skips the notes and the answer (the seam's
 * `undefined`), and the request costs what it would without telemetry, but for this call.
 *
 * @example
 * const observation = beginRequest({ tracer, tracing, propagator, meters }, request);
 * await (observation ? observation.within(() => handle(request)) : handle(request));
 * observation?.end({ path: '/v1/pets', status: 200, notes: { route: '/v1/pets' }, clientAddress: undefined, ms: 1.5 });
 */
export function beginRequest({ tracer, tracing, propagator, meters }: RequestTelemetry, request: ObservedRequest): RequestObservation | undefined {
  const instruments = meters.instruments();
  // Nothing registered: not even the URL is read (on node:http it is a string built per request). Bench: the telemetry table.
  if (instruments === undefined && !tracing()) return undefined;
  const method = methodOf(request.method);
  const parent = propagator.extract(context.active(), request, HEADERS);
  const span = tracer.startSpan(method, serverStart(method, request.url), parent);
  // A no-op tracer's span without a caller's trace has the invalid context: nothing below it could record either.
  // Compared, not validated: isSpanContextValid runs two regular expressions, on every unrecorded request here.
  if (instruments === undefined && span.spanContext().traceId === INVALID_TRACEID) return undefined;
  return new RequestSpan(span, parent, method, meters);
}

/** One request's span and the method its metrics are recorded under. */
class RequestSpan implements RequestObservation {
  readonly traceId: string | undefined;
  readonly #span: Span;
  readonly #parent: Context;
  readonly #method: string;
  readonly #meters: Meters;

  constructor(span: Span, parent: Context, method: string, meters: Meters) {
    this.#span = span;
    this.#parent = parent;
    this.#method = method;
    this.#meters = meters;
    this.traceId = span.isRecording() ? span.spanContext().traceId : undefined;
  }

  within<T>(run: () => Promise<T>): Promise<T> {
    // Current even when not recording (a sampler said no): the storages' spans then follow that decision.
    if (this.#span.spanContext().traceId === INVALID_TRACEID) return run();
    return context.with(trace.setSpan(this.#parent, this.#span), run);
  }

  end(answer: Omit<Answered, 'request' | 'traceId'>): void {
    const span = this.#span;
    if (span.isRecording()) describeAnswer(span, this.#method, answer);
    span.end();
    // Asked again: a meter provider registered since begin() counts this request too.
    const instruments = this.#meters.instruments();
    if (instruments !== undefined) this.#meters.record(instruments, this.#method, answer);
  }
}

/**
 * Names the span `METHOD route` (the method alone where no route matched) and sets what the answer
 * tells. Every value is the server's own: a route template, a redacted path, a status, the plan.
 */
function describeAnswer(span: Span, method: string, { path, status, notes, clientAddress }: Omit<Answered, 'request' | 'traceId'>): void {
  const { route, plan, limit, banHeldMs } = notes;
  span.updateName(route === undefined ? method : `${method} ${route}`);
  const attributes: Attributes = { [ATTRIBUTE.urlPath]: path };
  if (route !== undefined) attributes[ATTRIBUTE.route] = route;
  if (status !== 0) attributes[ATTRIBUTE.statusCode] = status;
  if (clientAddress !== undefined) attributes[ATTRIBUTE.clientAddress] = plainAddress(clientAddress);
  if (plan !== undefined) attributes[ATTRIBUTE.plan] = planName(plan);
  if (limit !== undefined) attributes[ATTRIBUTE.rateLimit] = limit;
  if (banHeldMs !== undefined) attributes[ATTRIBUTE.banHeldMs] = banHeldMs;
  // A server's 4xx is the client's error, not the span's: the conventions leave it UNSET.
  if (status === 0 || status >= 500) {
    attributes[ATTRIBUTE.errorType] = status === 0 ? CONNECTION_RESET : String(status);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.setAttributes(attributes);
}

/**
 * The caller's address as the limits count it: an IPv4-mapped IPv6 address (`::ffff:192.0.2.7`,
 * how a socket listening on `::` reports an IPv4 caller) as its IPv4 address; any other as it is.
 */
function plainAddress(address: string): string {
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address;
  const ip = ipaddr.IPv6.parse(address);
  return ip.isIPv4MappedAddress() ? ip.toIPv4Address().toString() : address;
}
