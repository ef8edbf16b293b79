/** The seam telemetry plugs into: what the request path notes about each request, and what the composition root asks of a tracer and a meter. */
import type { LimitStore } from '../limits/limit-store.ts';
import type { LimitRuling } from '../limits/limiter.ts';
import type { Plan } from '../limits/plans.ts';
import type { PetStorage } from '../storage/pet-storage.ts';

/**
 * What the request path decided about one request, noted as it goes, for spans and metrics. Every
 * value is the server's own (a route template, a plan), never a client's text or a key.
 *
 * @example
 * const notes: RequestNotes = { route: '/v1/pets/{petId}', plan: 'pro', limit: 'admitted' };
 */
export interface RequestNotes {
  /** The matched route's template with the base path (`/v1/pets/{petId}`), or a fixed path (`/healthz`). */
  route?: string;
  /** The plan of the key the request was counted against; none for a caller without a valid key. */
  plan?: Plan;
  /** How the limits ruled; none when the request never reached them (a 404 outside the API, a preflight). */
  limit?: LimitRuling;
  /** Set when this request started a ban: how long it lasts, in ms. */
  banMs?: number;
  /** How long a banned caller's answer was held, in ms: 0 when `maxHeldBans` were. */
  banHeldMs?: number;
}

/**
 * What telemetry reads of a request: its method, its URL (the scheme) and the caller's trace
 * context in its headers. A Request is one, and so is a host's lighter view of it; the type names
 * no body, so the public declarations need no DOM stream types (a Node project has none).
 *
 * @example
 * const request: ObservedRequest = { method: 'GET', url: 'http://localhost/v1/pets', headers: new Headers({ traceparent }) };
 */
export interface ObservedRequest {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  /** Looked up by lower-case name. */
  readonly headers: { get(name: Lowercase<string>): string | null };
}

/**
 * One request's observation, opened as it arrives and ended with its answer.
 *
 * @example
 * const observation = telemetry.begin(request); // undefined: nothing records it
 * const response = await (observation ? observation.within(() => handle(request, Object.assign({}, host, { notes }))) : handle(request, host));
 * observation?.end({ path, status: response.status, notes, clientAddress, ms });
 */
export interface RequestObservation {
  /** The trace this request is part of, for the access log; none when nothing records it. */
  readonly traceId: string | undefined;
  /** Runs the rest of the request with its span current, so the storages' calls are its children. */
  within<T>(run: () => Promise<T>): Promise<T>;
  /**
   * Ends the observation with the answer (status 0: the connection was reset) and what the path
   * noted: the record of it but what the observation knows already, the request it began with and its trace.
   */
  end(answer: Omit<Answered, 'request' | 'traceId'>): void;
}

/**
 * One answered request: the one record every watcher of answers is told as the answer leaves
 * (telemetry, the command's access log); `onResponse`'s `Exchange` is its public face, with the
 * Response. On the direct node:http path no Response is made, and no Request either: `request`
 * is then the host's view of it.
 *
 * @example
 * const answered: Answered = { request, path: '/v1/pets', status: 200, notes: { route: '/v1/pets' }, clientAddress: '203.0.113.7', ms: 1.2 };
 */
export interface Answered {
  readonly request: ObservedRequest;
  /**
   * The request's path as the client sent it (`/api/v1/pets/7`: a mount prefix the host cut off is
   * put back), without its query, every key and the admin token in it redacted.
   */
  readonly path: string;
  /** The status answered; `0` when the connection was reset instead. */
  readonly status: number;
  /** What the request path decided; nothing when telemetry did not observe the request. */
  readonly notes: RequestNotes;
  /** The caller's address as the rate limits see it (after `trustProxy`), when the host tells it. */
  readonly clientAddress: string | undefined;
  /** Milliseconds from arrival to the answer (`performance.now`). */
  readonly ms: number;
  /** The trace the request is part of, when telemetry records it. */
  readonly traceId?: string | undefined;
}

/**
 * One store's telemetry: its storages as it wants them called (with child spans, say), and each
 * request's observation.
 *
 * @example
 * const { storage, limitStore, begin } = telemetry.forStore({ storage, limitStore });
 */
export interface StoreTelemetry {
  readonly storage: PetStorage;
  readonly limitStore: LimitStore;
  /**
   * Opens the request's observation; `undefined` when nothing would record it (no provider
   * registered): the host then runs the request as it would without telemetry, with no notes to
   * fill and no answer to describe.
   */
  begin(request: ObservedRequest): RequestObservation | undefined;
}

/**
 * The `telemetry` option: what `openTelemetry()` (petstore-service/opentelemetry) returns. The
 * composition root asks it once per store, with the store's storages.
 *
 * @example
 * import { openTelemetry } from 'petstore-service/opentelemetry';
 * const petstore = createPetStore({ telemetry: openTelemetry() });
 */
export interface Telemetry {
  forStore(parts: { readonly storage: PetStorage; readonly limitStore: LimitStore }): StoreTelemetry;
}
