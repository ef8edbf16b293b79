/** A composed store as a node:http request listener: replies written directly when no layer needs a Response, else through @whatwg-node's bridge. */
import { createServerAdapter, Response as PonyfillResponse } from '@whatwg-node/server';
import { isConnectionReset, isEndless, type Answer, type Handle, type Host, type PetStoreContext } from '../../src/index.ts';
import { answerNode, isNodeExchange } from './direct.ts';
import { nodeHost, type NodeRequestFields } from './host.ts';

/** What the listener serves: the store's two forms, as the composition root builds them. */
export interface Served {
  readonly handle: Handle;
  /** Present when nothing around the API needs a Response (no hooks, admin API or faults): node:http gets its replies written directly. */
  readonly answer?: Answer | undefined;
}

/** A node:http listener, plus what the store must wait for on close. */
export interface NodeListener {
  (req: unknown, res: unknown, ...rest: unknown[]): Promise<void>;
  dispose(): Promise<void>;
}

/** The server context @whatwg-node hands the bridged handler: its own fields, and ours. */
interface BridgeContext {
  readonly req: { readonly socket?: { destroy?: () => void } };
  readonly host: Host;
}

/** The node:http requests answered with an endless Response (an event stream): a closing server ends them (runtimes/node/shutdown.ts). */
const endless = new WeakSet<object>();

/**
 * Whether node:http's request `req` was answered with an endless Response (src/handle.ts), which a
 * server closing down must end itself: it would never finish on its own.
 *
 * @example
 * if (answeredEndlessly(response.req)) response.destroy();
 */
export const answeredEndlessly = (req: object): boolean => endless.has(req);

/**
 * `served` as a node:http listener, called as `(req, res)`, Express's `(req, res, next)` (it answers
 * everything, so never calls `next`) or `(req, res, context)` with what the host knows (Koa, Fastify).
 */
export function nodeListener(served: Served): NodeListener {
  const adapter = createServerAdapter<BridgeContext>(async (request, { req, host }) => {
    const response = await served.handle(request, host);
    if (isEndless(response)) endless.add(req);
    if (!isConnectionReset(response)) return response;
    // A reset injected by a fault: the connection is closed with no answer, and the adapter gets a
    // response to write into the closed socket (status 0 cannot be written).
    req.socket?.destroy?.();
    return new PonyfillResponse(null, { status: 500 });
  });
  const { answer } = served;
  const listener = (req: unknown, res: unknown, ...rest: unknown[]): Promise<void> => {
    const request = req as NodeRequestFields;
    const context = typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as PetStoreContext) : undefined;
    if (answer && isNodeExchange(req, res)) return answerNode(answer, req, res as never, nodeHost(request, context));
    // The bridge writes its own Response class fastest.
    const host = nodeHost(request, context, PonyfillResponse as unknown as typeof Response);
    return (adapter.requestListener as (...args: unknown[]) => Promise<void>)(req, res, { host });
  };
  return Object.assign(listener, { dispose: async () => adapter.dispose() });
}
