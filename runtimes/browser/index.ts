/** petstore-service/browser: registers the Pet Store's service worker from a page, waits until it answers the page, and drives its worlds. */
import type { SeedInput } from '../../controls/index.ts';
import { CLAIM, RESET } from '../service-worker/protocol.ts';
import { asker, openSandbox, replyTo, worldControls, type PageSandbox, type PageWorldControls } from './controls.ts';

export type { PageSandbox, PageWorldControls } from './controls.ts';
export type { Har, HarEntry, JournalFilter } from '../../controls/without-admin.ts';

/** Options of {@link start}. */
export interface StartOptions {
  /**
   * The worker script's URL, relative to the page: the `petstore-service-worker.js` that
   * `npx petstore-service init <dir>` wrote, as `<dir>` is served (`'/petstore-service-worker.js'`
   * for `public/` in Vite or Next.js), or a worker of your own built on `servePetStoreInWorker`.
   */
  readonly url: string | URL;
  /** The registration's scope. Default: the script's folder, the browser's default. The page must be inside it. */
  readonly scope?: string | URL;
}

/**
 * The Pet Store's service worker, registered and answering this page, with the controls of its
 * main world (the configured keys', shared by every page the worker serves: `reset()` empties the
 * pets for all of them) and a way to open a world of the page's own.
 *
 * @example
 * const petstore: StartedPetStoreWorker = await start({ url: '/petstore-service-worker.js' });
 * await petstore.faults.inject({ status: 503, method: 'POST' });
 */
export interface StartedPetStoreWorker extends PageWorldControls {
  /** The browser's registration of the worker (`registration.unregister()` removes it). */
  readonly registration: ServiceWorkerRegistration;
  /**
   * Opens a {@link PageSandbox}: pets and ids from 1, quotas, clock and faults of its own, chosen
   * by its keys, seeded with `seed` (anything `seed()` takes). One per Storybook story or iframe
   * keeps them from seeing each other. Rejects when the worker's cap (1,000) is reached or the seed is bad.
   */
  sandbox(options?: { readonly seed?: SeedInput }): Promise<PageSandbox>;
}

const OPTION_NAMES: readonly string[] = ['url', 'scope'] satisfies (keyof StartOptions)[];

/**
 * Registers the Pet Store's service worker at `url` and resolves once it controls this page, so
 * the next `fetch('/v1/…')` is answered by it, on the first load too (the worker skips waiting and
 * claims the page) and after a Shift+Reload (it is asked to claim the page again).
 *
 * Rejects with a `TypeError` for a wrong option (naming it and the valid ones), and with an `Error`
 * saying why when the page cannot have service workers (`navigator.serviceWorker` is missing: not a
 * secure context, so neither https nor localhost), when the browser refuses the script (not found,
 * not JavaScript, or it throws; the browser's error is the `cause`), when the page is outside the
 * worker's scope, or when the worker fails to install. A worker at `url` that is not a Pet Store
 * (does not take control and ignores the claim request) leaves the promise pending.
 *
 * @example
 * import { start } from 'petstore-service/browser';
 * const worker = await start({ url: '/petstore-service-worker.js' });
 * const pets = await (await fetch('/v1/pets', { headers: { authorization: 'Bearer demo-key' } })).json();
 * await worker.reset(); // no pets, fresh quotas, no bans
 * const sandbox = await worker.sandbox({ seed: [{ name: 'Rex', categoryId: 1 }] }); // a world of this page's own
 */
export async function start(options: StartOptions): Promise<StartedPetStoreWorker> {
  assertKnownOptions(options);
  const script = checkedUrl(options.url, 'url');
  const scope = options.scope === undefined ? undefined : checkedUrl(options.scope, 'scope');
  const container = globalThis.navigator?.serviceWorker;
  if (!container) {
    const why =
      globalThis.isSecureContext === false ? 'the page is not a secure context: serve it over https or from localhost' : 'this browser offers none here';
    throw new Error(`start: this page cannot use service workers (navigator.serviceWorker is missing): ${why}`);
  }
  const registration = await container.register(script, scope === undefined ? undefined : { scope }).catch((cause: unknown) => {
    const reason = (cause as Error)?.message ?? String(cause);
    throw new Error(`start: the browser refused the service worker ${script}: ${reason}`, { cause });
  });
  if (!location.href.startsWith(registration.scope)) {
    throw new Error(`start: this page (${location.href}) is outside the worker's scope ${registration.scope}, so the worker cannot answer it`);
  }
  await controlledBy(container, registration, script);
  const current = () => container.controller ?? registration.active!;
  const control = asker(current);
  // The main world's reset is the message every version of the worker knows.
  return { registration, ...worldControls(control, undefined, () => ask(current(), RESET)), sandbox: (options) => openSandbox(control, options) };
}

/**
 * A TypeError naming the first option `start` does not know, and the ones it does. Not
 * src/options.ts's check: importing the core would put ~20 kB of it into every page that starts the worker.
 */
function assertKnownOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null) throw new TypeError(`start: options must be an object, like { url: '/petstore-service-worker.js' }`);
  const unknown = Object.keys(options).find((name) => !OPTION_NAMES.includes(name));
  if (unknown !== undefined) throw new TypeError(`start: unknown option "${unknown}"; the options are ${OPTION_NAMES.join(', ')}`);
}

/** `value` as an absolute URL string, resolved against the page; a TypeError naming the option otherwise. */
function checkedUrl(value: unknown, name: 'url' | 'scope'): string {
  if (typeof value === 'string' || value instanceof URL) {
    try {
      return new URL(value, location.href).href;
    } catch {
      // Reported below with the other wrong values.
    }
  }
  const hint = name === 'url' ? `, like '/petstore-service-worker.js'` : '';
  throw new TypeError(`start: ${name} must be a URL (string or URL)${hint}, got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`);
}

/** Resolves once the page's controller is the worker at `script`, asking it to claim the page if need be. */
async function controlledBy(container: ServiceWorkerContainer, registration: ServiceWorkerRegistration, script: string): Promise<void> {
  const ours = () => container.controller?.scriptURL === script;
  if (ours()) return;
  const controlled = new Promise<void>((resolve) => {
    const check = () => {
      if (!ours()) return;
      container.removeEventListener('controllerchange', check);
      resolve();
    };
    container.addEventListener('controllerchange', check);
  });
  const worker = await activated(registration, script);
  // It claimed the pages in scope as it activated; a page that loaded later, with Shift+Reload, it must claim again.
  if (!ours()) await ask(worker, CLAIM);
  await controlled;
}

/** The registration's worker for `script` once it is activated; rejects if it fails to install. */
function activated(registration: ServiceWorkerRegistration, script: string): Promise<ServiceWorker> {
  const active = registration.active;
  const coming = registration.installing ?? registration.waiting;
  if (active?.scriptURL === script && !coming) return Promise.resolve(active);
  if (!coming) return Promise.reject(new Error(`start: the registration for ${script} has no worker`));
  return new Promise((resolve, reject) => {
    const settle = () => {
      if (coming.state === 'activated') resolve(coming);
      if (coming.state === 'redundant') reject(new Error(`start: the service worker ${script} failed to install (its install or activate handler failed)`));
    };
    coming.addEventListener('statechange', settle);
    settle();
  });
}

/** Sends `type` to `worker` and resolves when it replies that the work is done. */
async function ask(worker: ServiceWorker, type: typeof CLAIM | typeof RESET): Promise<void> {
  const reply = await replyTo(worker, { type });
  if (!reply.ok) throw new Error(`the Pet Store's service worker could not ${type === RESET ? 'reset' : 'claim the page'}: ${reply.message}`);
}
