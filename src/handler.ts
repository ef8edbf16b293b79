/** The public type of the handler createPetStore returns: what every host calls. */
import type { ServerAdapter, ServerAdapterBaseObject } from '@whatwg-node/server';
import type { PetStoreContext } from './options.ts';

/**
 * The Pet Store as one fetch handler: call `petstore.fetch(request)`, or hand it to
 * `http.createServer`, `Deno.serve`, `Bun.serve({ fetch })` or a service worker's `fetch` event.
 */
export type PetStore = ServerAdapter<PetStoreContext, ServerAdapterBaseObject<PetStoreContext>> & {
  /** The path every operation is under (`/v1` by default), for building the API's URL. */
  readonly basePath: string;
};
