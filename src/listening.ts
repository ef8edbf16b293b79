/** The shapes every runtime adapter's serve() shares: where to listen, and what a listening store is. */
import type { PetStoreOptions } from './options.ts';
import type { PetStore } from './pet-store.ts';

/** Options of a runtime adapter's `serve`: the store's options plus where to listen. */
export interface ListenOptions extends PetStoreOptions {
  /** TCP port; `0` picks a free one. Default 8080. */
  readonly port?: number;
  /** Serve this handler (a test store, one behind faults) instead of one made from the options. */
  readonly handler?: PetStore;
}

/** A Pet Store listening on a port. `await using` closes it. */
export interface ListeningPetStore extends AsyncDisposable {
  /** Base URL of the API, base path included, e.g. `http://127.0.0.1:8080/v1`. */
  readonly url: string;
  /** The fetch handler the server runs. */
  readonly petstore: PetStore;
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}
