/** The messages a page (petstore-service/browser) sends the Pet Store's service worker, and the worker's reply: no code of the core, so the page's module stays tiny. */

/** Asks the worker to take control of every page in its scope now, as a page loaded with Shift+Reload is not. */
export const CLAIM = 'petstore-service:claim';
/** Asks the worker to empty its pets and forget rate-limit counters, bans and faults (the main world's `reset()`; older workers know it too). */
export const RESET = 'petstore-service:reset';
/** One of the controls of the main world (no `sandbox`) or of a sandbox: {@link ControlMessage}. */
export const CONTROL = 'petstore-service:control';
/** Sent without a port while the page has state in the worker's memory: any event keeps the browser from stopping an idle worker, which would lose it. */
export const KEEP_ALIVE = 'petstore-service:keep-alive';

/**
 * What a control does, on the world it names: `open` (a sandbox, `args[0]` its seed) and
 * `delete` (the sandbox) aside, each is the controls' method of that name (`now`, `advance` and
 * `set` are the clock's; `inject`, `clear` and `list` the faults'); `requests` is the journal's
 * exchanges, which the page makes its HAR of.
 */
export type ControlOperation = 'reset' | 'seed' | 'pets' | 'now' | 'advance' | 'set' | 'inject' | 'clear' | 'list' | 'requests' | 'open' | 'delete';

/**
 * A control, with the arguments of the method it calls (structured-cloned, so a fault's `path`
 * may be a RegExp).
 *
 * @example
 * worker.postMessage({ type: CONTROL, op: 'advance', sandbox: id, args: [60_000] }, [port]);
 */
export interface ControlMessage {
  readonly type: typeof CONTROL;
  readonly op: ControlOperation;
  /** The sandbox's id; none for the main world, the configured keys'. */
  readonly sandbox?: string;
  readonly args: readonly unknown[];
}

/** What the worker posts back on the port that came with a request, once the work is done: the method's result, or the error's name (a bad argument's `TypeError`) and message. */
export type WorkerReply = { readonly ok: true; readonly value?: unknown } | { readonly ok: false; readonly name?: string; readonly message: string };
