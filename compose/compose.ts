/** The one composition root: every product (createPetStore, the test kit, the command, the service worker) is built here, in one order, and made the one callable PetStore every host calls. */
import type { ControlBounds, ControlLayers, Controls, FaultInjector, FaultRule, ManualClock, Sandboxes } from '../controls/without-admin.ts';
import { callOf, HOW_TO_CALL, openNodeResponse } from '../hosts/framework.ts';
import { hostOf } from '../hosts/fetch.ts';
import { initRequest } from '../hosts/in-process.ts';
import type { NodeListener, Served } from '../hosts/node/listener.ts';
import {
  ApiError,
  createAnswer,
  errorReply,
  handleOf,
  IN_PROCESS,
  isConnectionReset,
  render,
  wireReply,
  type Answer,
  type Handle,
  type Host,
  type ResolvedOptions,
} from '../src/index.ts';
import { watchedAnswer, withBoundary, type Observer } from './boundary.ts';
import type { PetStore } from './handler.ts';

/** What a product is made of. Everything but `config` is optional; each part is a layer below. */
export interface Composition {
  /** The store's options, checked. */
  readonly config: ResolvedOptions;
  /**
   * The clock of a fake backend: with it (or with `config.admin`), the API runs on controls over
   * fresh memory stores, recording a journal and taking faults; `config.now` is replaced by it.
   */
  readonly clock?: ManualClock;
  /** Faults from the start (and again after every reset): the command's `--delay` and `--fail-rate`. */
  readonly standingFaults?: readonly FaultRule[];
  /** Sees every answer without needing a Response: the command's access log. */
  readonly observe?: Observer;
  /** Answers some node:http requests in front of everything, the boundary and its hooks included: the command's `/metrics`. */
  readonly front?: NodeFront;
  /** The fake backend's layers, from the products that can have one: needed for `clock`, `config.admin` and `standingFaults`. */
  readonly layers?: ControlLayers;
  /** How much the fake backend keeps (sandboxes, their idle time, the journal), when `config.admin` does not say. */
  readonly bounds?: ControlBounds;
}

/** A product's parts: the handler in both its forms, and its controls if it has them. */
export interface Composed {
  readonly config: ResolvedOptions;
  /** Every request, as a Response: the boundary, the hooks, the admin API, the journal, the faults, the API. */
  readonly handle: Handle;
  /** The same answers as replies, when no layer needs a Response (no hooks, admin API, controls or faults): the direct node:http path. */
  readonly answer: Answer | undefined;
  readonly controls: Controls | undefined;
  /** The sandboxes beside the controls' world. */
  readonly sandboxes: Sandboxes | undefined;
  /** The faults in front of the API, when any can be injected. */
  readonly faults: FaultInjector | undefined;
  /** What answers on node:http before the handler does, if anything. */
  readonly front: NodeFront | undefined;
}

/**
 * Builds a product, outermost first: on node:http, the `front` (the command's `/metrics`); the
 * JSON error boundary with the hooks (onRequest, onResponse, the access log); the admin API under
 * `/__admin`; the journal; the faults; the API. The journal records what the client got, injected
 * faults included. toPetStore (below) makes the product one callable store, with
 * any members of its own (the test kit's controls).
 *
 * @example
 * const { handle } = compose({ config: resolveOptions({ apiKeys: { k: 'free' } }) });
 */
export function compose({ config: options, clock, standingFaults = [], observe, front, layers, bounds }: Composition): Composed {
  // Telemetry sees the storages first: a call to PostgreSQL or Redis becomes a child span of its request.
  const telemetry = options.telemetry?.forStore({ storage: options.storage, limitStore: options.limitStore });
  // A copy only when a storage was wrapped: the options object the path reads stays the one resolveOptions made.
  const wrapped = telemetry && (telemetry.storage !== options.storage || telemetry.limitStore !== options.limitStore);
  const config = wrapped ? { ...options, storage: telemetry.storage, limitStore: telemetry.limitStore } : options;
  const controlled = clock !== undefined || config.admin !== undefined;
  if ((controlled || standingFaults.length > 0) && !layers) throw new TypeError('compose: a clock, the admin API or standing faults need the control layers');
  const api = controlled ? undefined : createAnswer(config);
  let inner: Handle;
  let controls: Controls | undefined;
  let sandboxes: Sandboxes | undefined;
  let faults: FaultInjector | undefined;
  if (controlled) {
    ({ controls, sandboxes, handle: inner } = layers!.controlled(config, clock, standingFaults, bounds));
    faults = controls.faults;
  } else if (standingFaults.length > 0) {
    ({ faults, handle: inner } = layers!.faulty(handleOf(api!), config, standingFaults));
  } else {
    inner = handleOf(api!);
  }
  const plain = api && !faults && !config.onRequest && !config.onResponse;
  return {
    config,
    handle: withBoundary(inner, config, observe, telemetry),
    answer: plain ? watchedAnswer(api, config, observe, telemetry) : undefined,
    controls,
    sandboxes,
    faults,
    front,
  };
}

/**
 * An answer in front of the store on node:http, handed node:http's request and response as the
 * store was: true when it answered the exchange itself (the command's `/metrics`, which no hook,
 * log or quota sees), false to leave it to the store.
 *
 * @example
 * const front: NodeFront = (req, res) => isMetricsTarget((req as IncomingMessage).url) && answered(req, res);
 */
export type NodeFront = (req: unknown, res: unknown) => boolean;

/** What {@link toPetStore} serves: a composed product, the path its API is under, and what answers in front of it on node:http. */
interface Product extends Served {
  readonly config: { readonly basePath: string };
  readonly front?: NodeFront | undefined;
}

/**
 * `product` as a {@link PetStore}: one function, and `fetch` the same one, that serves whatever
 * it is called with (see hosts/framework.ts). It sniffs its arguments and hands them to one of
 * three named, typed members: `handleRequest` for a Request, with the host read from what follows
 * it; `fetchUrl` for a URL and init, which become the runtime's own Request, leaving the caller's
 * init untouched; `handleNode` for a node:http exchange, which the product's `front` may answer
 * before the node listener does.
 *
 * `serveNode` (hosts/node/listener.ts) is handed in by the products that serve node:http; a build
 * without it (the service worker) leaves node:http's bridge out, and answers a node:http call as
 * any call it cannot serve. `members` are a product's own (the test kit's standard `fetch`, its
 * keys and controls), laid over the store's as they are, getters kept live.
 *
 * @example
 * const petstore = toPetStore(compose({ config: resolveOptions({}) }), nodeListener);
 */
export function toPetStore(product: Product, serveNode?: (served: Served) => NodeListener): PetStore;
export function toPetStore<Members extends object>(
  product: Product,
  serveNode: ((served: Served) => NodeListener) | undefined,
  members: (store: PetStore) => Members,
): PetStore & Members;
export function toPetStore<Members extends object>(
  product: Product,
  serveNode?: (served: Served) => NodeListener,
  members?: (store: PetStore) => Members,
): PetStore | (PetStore & Members) {
  const listener = serveNode?.(product);
  // In process, a reset is what fetch does on a network error: it rejects (with the abort reason if the caller aborted).
  const answer = async (request: Request, host: Host): Promise<Response> => {
    const response = await product.handle(request, host);
    if (!isConnectionReset(response)) return response;
    throw request.signal.aborted ? request.signal.reason : new TypeError('fetch failed: the connection was reset (an injected network fault)');
  };
  const handleRequest = (request: Request, contexts: readonly unknown[]): Promise<Response> => answer(request, hostOf(request, contexts));
  const fetchUrl = (input: string | URL, init: RequestInit | undefined, contexts: readonly unknown[]): Promise<Response> => {
    // A plain product and a plain init: the reply rendered straight from a request view (hosts/in-process.ts).
    const plain = product.answer && contexts.length === 0 ? initRequest(input, init) : undefined;
    if (plain) return product.answer!(plain, IN_PROCESS).then((reply) => render(reply, { head: plain.method === 'HEAD' }));
    const request = new Request(input, init);
    return answer(request, contexts.length === 0 ? IN_PROCESS : { ...hostOf(request, contexts), inProcess: true });
  };
  const handleNode = (node: NodeListener, req: unknown, res: unknown, rest: readonly unknown[]): Promise<void> =>
    product.front?.(req, res) ? Promise.resolve() : node(req, res, ...rest);
  // One named parameter: Deno.serve reads a handler's length, and calls one of length 0 with no arguments.
  function petstore(this: unknown, input: unknown, ...rest: unknown[]): Promise<unknown> {
    const args = [input, ...rest];
    try {
      const call = callOf(args, this);
      if (call?.kind === 'request') return handleRequest(call.request, call.contexts);
      if (call?.kind === 'url') return fetchUrl(call.input, call.init, call.contexts);
      if (call?.kind === 'node' && listener) return handleNode(listener, call.req, call.res, call.rest);
      return Promise.resolve(misuse(args));
    } catch (error) {
      // A URL that is no URL, say: rejected, as the global fetch rejects it.
      return Promise.reject(error);
    }
  }
  // The one cast: a single function that sniffs its arguments serves every overload of PetStore,
  // which TypeScript cannot check of one implementation.
  const store = Object.assign(petstore, {
    fetch: petstore,
    basePath: product.config.basePath,
    dispose: async () => listener?.dispose(),
  }) as unknown as PetStore;
  if (!members) return store;
  layOver(store, members(store));
  return store;
}

/** Lays `members` over `store` as they are (a getter stays a getter), replacing what the store had of the same name. */
function layOver<Store extends object, Members extends object>(store: Store, members: Members): asserts store is Store & Members {
  Object.defineProperties(store, Object.getOwnPropertyDescriptors(members));
}

/** A call the store cannot serve: a JSON 500 saying how to call it, on a node:http response if one was passed, else a TypeError. */
function misuse(args: readonly unknown[]): void {
  const res = openNodeResponse(args);
  if (!res) throw new TypeError(HOW_TO_CALL);
  const { status, headers, body } = wireReply(
    errorReply(new ApiError({ status: 500, code: 'internal_error', message: HOW_TO_CALL }), () => {}),
    false,
  );
  res.writeHead(status, headers);
  res.end(body ?? '');
}
