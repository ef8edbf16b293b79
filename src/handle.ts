/** The request path as one function, in its two forms: replies (what node:http gets written directly) and Responses (what the layers around the API wrap). */
import type { Host } from './edge/host.ts';
import type { ApiRequest } from './operations/request.ts';
import type { ApiError } from './response/api-error.ts';
import type { Reply } from './response/reply.ts';

/**
 * An error a fault (controls/faults/faults.ts) has the API answer in the operation's place. The request
 * still passes every step before it, so the answer carries what a real failure there carries: the
 * quota headers (the request is counted as any is), the route's headers, CORS.
 *
 * @example
 * const injected: Injected = { error: new ApiError({ status: 503, code: 'service_unavailable', message: 'Down.' }) };
 * await handle(request, host, injected); // a 503 with the headers a real 503 there has
 */
export interface Injected {
  /** What the client gets; its own headers (a 503's `Retry-After`, a 429's quota) win over the steps'. */
  readonly error: ApiError;
  /** Run the operation first, its work done, and answer the error after it: a response lost once the server committed. */
  readonly afterHandling?: boolean;
}

/**
 * One request in, one response out: the handler before it becomes a `PetStore`. A layer that must
 * leave the client with no answer at all (an injected network fault) resolves to
 * {@link connectionReset}; every host ends the exchange as a lost connection would.
 *
 * @example
 * const handle: Handle = createHandle(resolveOptions({}));
 * const response = await handle(new Request('http://x/v1/pets'), NO_HOST);
 */
export type Handle = (request: Request, host: Host, injected?: Injected) => Promise<Response>;

/**
 * One request in, its reply out, before it is a Response: what both a {@link Handle} and the node:http path send.
 * The request may be a host's view of one (hosts/node/direct.ts, hosts/in-process.ts), which makes
 * the Request only if user code asks.
 *
 * @example
 * const answer: Answer = createAnswer(resolveOptions({}));
 * const { status } = await answer(new Request('http://x/v1/pets'), NO_HOST);
 */
export type Answer = (request: ApiRequest, host: Host, injected?: Injected) => Promise<Reply>;

/**
 * The answer that stands for "reset the connection": a {@link Handle} resolves to it when the
 * client must get no answer. node:http then destroys the socket, an in-process call rejects as
 * fetch does on a network error, the journal records status 0. It is `Response.error()`, the
 * one Response that no server can send, so no real answer is ever mistaken for it.
 *
 * @example
 * if (rule.network === 'reset') return connectionReset();
 */
export function connectionReset(): Response {
  return Response.error();
}

/** The Responses marked by {@link endlessAnswer}. */
const endless = new WeakSet<Response>();

/**
 * `response`, marked as an answer with no end of its own (the admin API's event stream): a host
 * that closes ends it at once rather than waiting for it to finish, which it never would.
 *
 * @example
 * return endlessAnswer(new Response(events, { headers: { 'Content-Type': 'text/event-stream' } }));
 */
export function endlessAnswer(response: Response): Response {
  endless.add(response);
  return response;
}

/**
 * Whether `response` was marked by {@link endlessAnswer}.
 *
 * @example
 * if (isEndless(response)) openStreams.add(req);
 */
export function isEndless(response: Response): boolean {
  return endless.has(response);
}

/**
 * Whether `response` is {@link connectionReset}'s: the exchange is to end with no answer.
 *
 * @example
 * if (isConnectionReset(response)) socket.destroy();
 */
export function isConnectionReset(response: Response): boolean {
  return response.type === 'error';
}
