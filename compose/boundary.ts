/** The outermost layer of every product: the JSON error boundary, and the one place that tells the hooks and the access log about each answer. */
import {
  createCallerAddress,
  errorReply,
  isConnectionReset,
  render,
  type AddressFinder,
  type Answer,
  type ApiRequest,
  type Handle,
  type Host,
  type ResolvedOptions,
} from '../src/index.ts';

/** One answer, as the command's access log sees it: no Response needed, so the direct node:http path stays open. */
export interface Answered {
  /** On the direct node:http path, the host's view of the request: no Request is made for the log. */
  readonly request: ApiRequest;
  readonly status: number;
  /** Milliseconds from arrival to the answer (`performance.now`). */
  readonly ms: number;
  /** The caller's address as the rate limits see it, when the host tells it. */
  readonly clientAddress: string | undefined;
}

/** Sees every answer as it leaves. */
export type Observer = (answered: Answered) => void;

/**
 * `handle` inside the boundary: whatever a layer within throws (the admin API, the journal, a
 * fault, host code) is answered as the API answers a failure, a JSON 500 whose cause goes to
 * `onError`, never a stack trace. Around it the watchers: `onRequest` as a request arrives,
 * `onResponse` and `observe` as its answer leaves. They only watch: what they throw goes to
 * `onError`, and the client's answer is the same whatever they do.
 */
export function withBoundary(handle: Handle, config: ResolvedOptions, observe: Observer | undefined): Handle {
  const { onRequest, onResponse, onError } = config;
  const callerAddress = createCallerAddress(config);
  return async (request, host) => {
    const start = performance.now();
    if (onRequest) watch(() => onRequest(request), onError);
    let response: Response;
    try {
      response = await handle(request, host);
    } catch (error) {
      response = render(errorReply(error, onError), { head: request.method === 'HEAD', ResponseClass: host.ResponseClass });
    }
    if (onResponse || observe) {
      const ms = performance.now() - start;
      const clientAddress = addressOrNone(callerAddress, request, host);
      if (onResponse) watch(() => onResponse({ request, response, ms, ...(clientAddress !== undefined && { clientAddress }) }), onError);
      if (observe) watch(() => observe({ request, status: isConnectionReset(response) ? 0 : response.status, ms, clientAddress }), onError);
    }
    return response;
  };
}

/** `answer` with `observe` told of each reply: the access log on the direct node:http path. `answer` itself never throws (see src/api.ts). */
export function observedAnswer(answer: Answer, config: ResolvedOptions, observe: Observer | undefined): Answer {
  if (!observe) return answer;
  const callerAddress = createCallerAddress(config);
  return async (request, host) => {
    const start = performance.now();
    const reply = await answer(request, host);
    const ms = performance.now() - start;
    watch(() => observe({ request, status: reply.status, ms, clientAddress: addressOrNone(callerAddress, request, host) }), config.onError);
    return reply;
  };
}

/** Runs a watcher; a throw or a rejected promise goes to `onError`, and an `onError` that throws on it is ignored. */
function watch(hook: () => unknown, onError: (error: unknown) => void): void {
  const report = (error: unknown) => {
    try {
      onError(error);
    } catch {
      // Nothing is left to tell: the answer must still go out.
    }
  };
  try {
    const result = hook();
    // An async hook's rejection would otherwise be unhandled, which ends a Node process.
    if (result instanceof Promise) result.catch(report);
  } catch (error) {
    report(error);
  }
}

/** The caller's address for the watchers. A `clientAddress` option that throws gives none here: the limits step reports the throw when it needs the address. */
function addressOrNone(callerAddress: AddressFinder, request: ApiRequest, host: Host): string | undefined {
  try {
    return callerAddress(request, host);
  } catch {
    return undefined;
  }
}
