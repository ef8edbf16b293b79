/** The stores' calls to their database as CLIENT spans, children of the request they serve: where a slow or failing request spent its time. */
import { context, SpanKind, SpanStatusCode, trace, type SpanOptions, type Tracer } from '@opentelemetry/api';
import type { LimitStore, PetStorage, StoreDatabase } from '../src/index.ts';
import { ATTRIBUTE } from './conventions.ts';

/** A store's operations, each with its span's name and options: made once per store, not per call. */
type Operations<Name extends string> = Readonly<Record<Name, { readonly name: string; readonly options: SpanOptions }>>;

/** The span name and attributes of each operation on `collection`, as the database conventions name them (`list pets`). */
function operations<Name extends string>(database: StoreDatabase, collection: string, names: readonly Name[]): Operations<Name> {
  const made = {} as Record<Name, { name: string; options: SpanOptions }>;
  for (const operation of names) {
    const attributes = { [ATTRIBUTE.dbSystem]: database.system, [ATTRIBUTE.dbOperation]: operation, [ATTRIBUTE.dbCollection]: collection };
    made[operation] = { name: `${operation} ${collection}`, options: { kind: SpanKind.CLIENT, attributes } };
  }
  return made;
}

/**
 * `error.type` of a failed call: the error's code (a driver's `ECONNREFUSED`, PostgreSQL's SQLSTATE)
 * or its class name, never its message, which may quote a statement's values. Anything that does
 * not look like an identifier is `_OTHER`.
 */
function errorType(error: unknown): string {
  const { code, name } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; name?: unknown };
  for (const candidate of [code, name]) {
    if (typeof candidate === 'string' && /^[\w.$-]{1,64}$/.test(candidate)) return candidate;
  }
  return '_OTHER';
}

/** Runs one store call in its CLIENT span, a child of whatever span is current (the request's). */
async function traced<T>(tracer: Tracer, { name, options }: { name: string; options: SpanOptions }, call: () => Promise<T>): Promise<T> {
  const parent = context.active();
  const span = tracer.startSpan(name, options, parent);
  if (!span.isRecording()) {
    span.end();
    return call();
  }
  try {
    // Current during the call, so a driver's own instrumentation (instrumentation-pg, say) nests below it.
    return await context.with(trace.setSpan(parent, span), call);
  } catch (error) {
    span.setAttribute(ATTRIBUTE.errorType, errorType(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

const PET_OPERATIONS = ['create', 'createOnce', 'get', 'list', 'count'] as const;

/**
 * `storage` with each call a CLIENT span (`list pets`): for a storage that names its database.
 * `ping` (readiness) passes through untraced, as it is: a load balancer's probes are not requests.
 *
 * @example
 * const storage = tracedPetStorage(sqlPetStorage(client), tracer);
 * await storage.list({ after: 0, limit: 20 }); // a span `list pets`, db.system.name postgresql
 */
export function tracedPetStorage(storage: PetStorage & { readonly database: StoreDatabase }, tracer: Tracer): PetStorage {
  const span = operations(storage.database, 'pets', PET_OPERATIONS);
  const wrapped: PetStorage = {
    database: storage.database,
    create: (pet) => traced(tracer, span.create, () => storage.create(pet)),
    createOnce: (key, fingerprint, pet, expiresAt, now) => traced(tracer, span.createOnce, () => storage.createOnce(key, fingerprint, pet, expiresAt, now)),
    get: (id) => traced(tracer, span.get, () => storage.get(id)),
    list: (query) => traced(tracer, span.list, () => storage.list(query)),
  };
  if (storage.ping) wrapped.ping = () => storage.ping!();
  if (storage.count) wrapped.count = () => traced(tracer, span.count, () => storage.count!());
  return wrapped;
}

const LIMIT_OPERATIONS = ['take', 'reject', 'ban'] as const;

/**
 * `limitStore` with each call a CLIENT span (`take limits`): for a limit store that names its
 * database. The subject (a key's hash, an address) is never an attribute.
 *
 * @example
 * const limitStore = tracedLimitStore(redisLimitStore(client), tracer);
 */
export function tracedLimitStore(limitStore: LimitStore & { readonly database: StoreDatabase }, tracer: Tracer): LimitStore {
  const span = operations(limitStore.database, 'limits', LIMIT_OPERATIONS);
  const wrapped: LimitStore = {
    database: limitStore.database,
    take: (subject, windows, now) => traced(tracer, span.take, () => limitStore.take(subject, windows, now)),
    reject: (subject, window, now) => traced(tracer, span.reject, () => limitStore.reject(subject, window, now)),
    ban: (subject, until, now) => traced(tracer, span.ban, () => limitStore.ban(subject, until, now)),
  };
  if (limitStore.ping) wrapped.ping = () => limitStore.ping!();
  return wrapped;
}
