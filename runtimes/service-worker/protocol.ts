/** The two requests a page (petstore-service/browser) sends the Pet Store's service worker, and the worker's reply. */

/** Asks the worker to take control of every page in its scope now, as a page loaded with Shift+Reload is not. */
export const CLAIM = 'petstore-service:claim';
/** Asks the worker to empty its pets and forget rate-limit counters and bans. */
export const RESET = 'petstore-service:reset';

/** What the worker posts back on the port that came with a request, once the work is done. */
export type WorkerReply = { readonly ok: true } | { readonly ok: false; readonly message: string };
