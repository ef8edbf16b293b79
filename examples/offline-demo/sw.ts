/** The demo's service worker: the Pet Store under /v1, and the page's own files from a cache, all offline. */
import { servePetStoreInWorker } from 'petstore-service/service-worker';

declare const self: {
  addEventListener(type: 'install', listener: (event: { waitUntil(p: Promise<unknown>): void }) => void): void;
  addEventListener(type: 'fetch', listener: (event: { request: Request; respondWith(r: Promise<Response>): void }) => void): void;
};

const CACHE = 'petstore-offline-demo-v1';
const PAGE = ['./', './index.html', './app.js', './idb.js'];

// Skips waiting and claims the page itself, and answers start()'s reset() from the page.
servePetStoreInWorker({ apiKeys: { 'demo-key': 'pro' } });

self.addEventListener('install', (event) => event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PAGE))));

// Requests the Pet Store did not take: the page's own files, network first so edits show up,
// the cache when offline.
self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).pathname.startsWith('/v1')) return;
  if (event.request.method !== 'GET') return;
  event.respondWith(
    fetch(event.request)
      .then(async (response) => {
        if (response.ok) await (await caches.open(CACHE)).put(event.request, response.clone());
        return response;
      })
      .catch(async () => (await caches.match(event.request)) ?? Response.error()),
  );
});
