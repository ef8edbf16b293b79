/** The site `init` writes, kept by its worker for offline use: precached on install, answered network-first with the cache as fallback, older versions deleted on activate. */

/**
 * What init's options line says about the site: its files, relative to the worker, and a version that changes with them.
 *
 * @example
 * const site: SiteFiles = { files: ['./', 'index.html', 'petstore-service-browser.js'], version: '0.1.0-3f2a9c1e07b4' };
 */
export interface SiteFiles {
  /** The files to keep, relative to the worker script's folder (`'./'` is the folder's page). */
  readonly files: readonly string[];
  /** Changes whenever a file or the package does; it names the cache, so a new one replaces the old. */
  readonly version: string;
}

/** The parts of a fetch event and of a service worker's global scope the site cache uses. */
interface ExtendableEventLike {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface SiteWorkerScope {
  readonly location: { readonly href: string };
  readonly registration: { readonly scope: string };
  readonly caches: CacheStorage;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
}

/**
 * Keeps the site's files in a cache named by the worker's scope and the site's version, so the
 * page loads with no network after its first load. Add it after the Pet Store's fetch listener:
 * that one answers `/v1` first (its `respondWith` stops the listeners after it).
 *
 * Files are fetched from the network while it answers, so an edited page shows at once, and from
 * the cache when it does not. Requests for anything else pass through untouched.
 *
 * @example
 * servePetStoreInWorker({ apiKeys: { 'demo-key': 'pro' } });
 * cacheSite({ files: ['./', 'index.html', 'petstore-service-browser.js'], version: '0.1.0-3f2a9c1e07b4' });
 */
export function cacheSite(site: SiteFiles, scope: SiteWorkerScope = globalThis as unknown as SiteWorkerScope): void {
  // Caches belong to the origin, not the scope: the scope in the name keeps two sites of one origin apart.
  const prefix = `petstore-service site ${scope.registration.scope} `;
  const name = `${prefix}${site.version}`;
  const files = new Set(site.files.map((file) => new URL(file, scope.location.href).href));

  scope.addEventListener('install', (event) => event.waitUntil(precache(scope.caches, name, files)));
  scope.addEventListener('activate', (event) =>
    event.waitUntil(
      scope.caches.keys().then((names) => Promise.all(names.filter((old) => old.startsWith(prefix) && old !== name).map((old) => scope.caches.delete(old)))),
    ),
  );
  scope.addEventListener('fetch', (event) => {
    const key = withoutQuery(event.request.url);
    if (event.request.method !== 'GET' || !files.has(key)) return;
    event.respondWith(networkElseCache(event, scope.caches, name, key));
  });
}

/**
 * Stores every file the network has. One that fails is left out rather than failing the install:
 * a worker that did not install would take the API down with the page.
 */
async function precache(caches: CacheStorage, name: string, files: ReadonlySet<string>): Promise<void> {
  const cache = await caches.open(name);
  await Promise.all(
    [...files].map(async (file) => {
      // Past the HTTP cache: the files init just wrote, not what a browser kept from before.
      const response = await fetch(file, { cache: 'reload' }).catch(() => undefined);
      if (response?.ok) await cache.put(file, await storable(response));
    }),
  );
}

async function networkElseCache(event: FetchEventLike, caches: CacheStorage, name: string, key: string): Promise<Response> {
  try {
    const response = await fetch(event.request);
    if (response.ok && response.type === 'basic') {
      const copy = storable(response.clone());
      event.waitUntil(copy.then(async (stored) => (await caches.open(name)).put(key, stored)));
    }
    return response;
  } catch (error) {
    const cached = await (await caches.open(name)).match(key);
    if (cached) return cached;
    throw error;
  }
}

/**
 * A response the cache can give a navigation: a server that redirects (`npx serve` sends
 * /index.html to /) yields one marked redirected, which Chromium refuses for a page load.
 */
async function storable(response: Response): Promise<Response> {
  if (!response.redirected) return response;
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

const withoutQuery = (url: string) => url.replace(/[?#].*$/, '');
