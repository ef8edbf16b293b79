/** The service worker `npx petstore-service init` writes: this bundled with everything it needs, after one line of options. */
import { servePetStoreInWorker, type ServiceWorkerPetStoreOptions } from './index.ts';
import { cacheSite, type SiteFiles } from './site-cache.ts';

/**
 * The line init writes before the bundle (JSON, so only JSON-shaped options): the keys the worker
 * accepts, the pets `--generate` asks for (stored as it installs, into an empty IndexedDB), and the
 * site's files when init wrote a site. `init --worker-only` names none: a worker beside an app of
 * its own must not cache files that are not there.
 */
declare const PETSTORE_WORKER_OPTIONS: ServiceWorkerPetStoreOptions & { readonly site?: SiteFiles };

const { site, ...options } = PETSTORE_WORKER_OPTIONS;
servePetStoreInWorker(options);
// After the Pet Store's fetch listener, which answers /v1 and so stops this one from seeing it.
if (site) cacheSite(site);
