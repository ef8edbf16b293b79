/** The onRequest and onResponse hooks around a whole handler: they see every request it answers, the admin API's and injected faults included. */
import { createCallerAddress, type CallerAddress } from '../src/edge/caller-address.ts';
import type { PetStoreContext } from '../src/edge/context.ts';
import type { Handle } from '../src/handle.ts';
import type { ResolvedOptions } from '../src/options.ts';

/**
 * `handle` between the hooks: `onRequest` sees each request as it arrives, `onResponse` the answer
 * as it leaves. They only watch: what they throw (or reject with) goes to `onError`, and the
 * client's answer is the same whatever they do.
 */
export function withHooks(handle: Handle, config: ResolvedOptions): Handle {
  const { onRequest, onResponse, onError } = config;
  if (!onRequest && !onResponse) return handle;
  const callerAddress = createCallerAddress(config);
  return async (request, context) => {
    const start = performance.now();
    if (onRequest) watch(() => onRequest(request), onError);
    const response = await handle(request, context);
    if (onResponse) {
      const ms = performance.now() - start;
      const clientAddress = addressOrNone(callerAddress, request, context);
      watch(() => onResponse({ request, response, ms, ...(clientAddress !== undefined && { clientAddress }) }), onError);
    }
    return response;
  };
}

/** Runs a hook; a throw or a rejected promise goes to `onError`, and an `onError` that throws on it is ignored. */
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

/** The caller's address for `onResponse`. A `clientAddress` option that throws gives none here: the hook still runs, and the limits step reports the throw when it needs the address. */
function addressOrNone(callerAddress: CallerAddress, request: Request, context: PetStoreContext): string | undefined {
  try {
    return callerAddress(request, context);
  } catch {
    return undefined;
  }
}
