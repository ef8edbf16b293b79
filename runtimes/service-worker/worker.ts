/** The service worker `npx petstore-service init` writes: this bundled with everything it needs, after one line of options. */
import { servePetStoreInWorker, type ServiceWorkerPetStoreOptions } from './index.ts';

/** The line init writes before the bundle: the keys the worker accepts (JSON, so only JSON-shaped options). */
declare const PETSTORE_WORKER_OPTIONS: ServiceWorkerPetStoreOptions;

servePetStoreInWorker(PETSTORE_WORKER_OPTIONS);
