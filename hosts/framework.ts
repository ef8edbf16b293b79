/** What a framework hands the handler it was given, recognised, so the store serves Express, Koa, Fastify and Hono whichever of its functions it is handed. */
import type { PetStoreContext } from '../src/index.ts';
import { isNodeExchange } from './node/direct.ts';

/** A call the store can serve: a Request, a URL for an in-process request, or a node:http exchange with what the framework knows. */
export type Call =
  | { readonly kind: 'request'; readonly request: Request; readonly contexts: readonly unknown[] }
  | { readonly kind: 'url'; readonly input: string | URL; readonly init: RequestInit | undefined; readonly contexts: readonly unknown[] }
  | { readonly kind: 'node'; readonly req: unknown; readonly res: unknown; readonly rest: readonly unknown[] };

/** A Request, told apart from a node:http request (whose `headers` is a plain object). */
export function isRequest(input: unknown): input is Request {
  return typeof input === 'object' && input !== null && typeof (input as Request).headers?.get === 'function' && 'url' in input;
}

/** Koa's context: node:http's pair inside, the parsed body on `request`, koa-mount's prefix on `mountPath`. */
interface KoaContext {
  readonly req: unknown;
  readonly res: unknown;
  readonly request: { readonly body?: unknown };
  readonly mountPath?: string;
  respond?: boolean;
}

/** Fastify's request and reply: node:http's pair as `raw`, the parsed body on the request. */
interface FastifyExchange {
  readonly request: { readonly raw: unknown; readonly body?: unknown };
  readonly reply: { readonly raw: unknown; hijack(): unknown };
}

/** Hono's context: the Request as `req.raw`, the runtime's bindings (@hono/node-server's socket) as `env`. */
interface HonoContext {
  readonly req: { readonly raw: Request };
  readonly env?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isKoaContext(value: unknown): value is KoaContext {
  return isObject(value) && isObject(value.request) && isNodeExchange(value.req, value.res);
}

function fastifyExchange(request: unknown, reply: unknown): FastifyExchange | undefined {
  if (!isObject(request) || !isObject(reply) || typeof reply.hijack !== 'function') return undefined;
  return isNodeExchange(request.raw, reply.raw) ? { request: request as FastifyExchange['request'], reply: reply as FastifyExchange['reply'] } : undefined;
}

function isHonoContext(value: unknown): value is HonoContext {
  return isObject(value) && isObject(value.req) && isRequest(value.req.raw);
}

/**
 * The call `args` make, or `undefined` for one the store cannot serve. A framework's own shape is
 * taken over here: Koa is told not to respond (`ctx.respond = false`) and Fastify's reply is
 * hijacked, since the store writes the response itself. `self` is what the function was called
 * on: Fastify calls a route handler on its instance, whose `prefix` is the mount prefix it leaves
 * on the path.
 *
 * @example
 * const call = callOf([ctx, next], undefined); // koa-mount('/api', petstore): { kind: 'node', … }
 */
export function callOf(args: readonly unknown[], self: unknown): Call | undefined {
  const [first, second] = args;
  // Express and Connect: (req, res, next); node:http: (req, res); ours: (req, res, context). First,
  // as the commonest call: a Request has no `on`, so it is never taken for one (BENCHMARKS.md, HTTP: every row).
  if (isNodeExchange(first, second)) return { kind: 'node', req: first, res: second, rest: args.slice(2) };
  if (isRequest(first)) return { kind: 'request', request: first, contexts: args.slice(1) };
  if (typeof first === 'string' || first instanceof URL) return { kind: 'url', input: first, init: second as RequestInit | undefined, contexts: args.slice(2) };
  if (isKoaContext(first)) {
    first.respond = false;
    const context: PetStoreContext = { body: first.request.body, mountPath: first.mountPath };
    return { kind: 'node', req: first.req, res: first.res, rest: [context] };
  }
  const fastify = fastifyExchange(first, second);
  if (fastify) {
    fastify.reply.hijack();
    const prefix = isObject(self) && typeof self.prefix === 'string' && self.prefix !== '' ? self.prefix : undefined;
    const context: PetStoreContext = { body: fastify.request.body, mountPath: prefix };
    return { kind: 'node', req: fastify.request.raw, res: fastify.reply.raw, rest: [context] };
  }
  if (isHonoContext(first)) return { kind: 'request', request: first.req.raw, contexts: first.env === undefined ? [] : [first.env] };
  return undefined;
}

/** How to call the store, for a call it cannot serve. */
export const HOW_TO_CALL =
  'The Pet Store was called with something it cannot serve. Call it as petstore(req, res) with node:http’s request and response, or petstore.fetch(request) with a Request; Express, Koa, Fastify and Hono may be handed the store itself (docs/mounting.md).';

/**
 * A node:http response among `args` that is still open, so a call the store cannot serve still
 * gets a JSON answer there rather than none.
 */
export function openNodeResponse(
  args: readonly unknown[],
): { writeHead(status: number, headers: Record<string, string>): unknown; end(body: string): unknown } | undefined {
  for (const arg of args) {
    const res = isObject(arg) && isObject(arg.raw) ? arg.raw : arg;
    if (isObject(res) && typeof res.writeHead === 'function' && typeof res.end === 'function' && res.headersSent === false) {
      return res as unknown as ReturnType<typeof openNodeResponse>;
    }
  }
  return undefined;
}
