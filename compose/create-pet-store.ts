/** createPetStore: the package's main export, the composition root's product with the admin API's layers, as one callable store on node:http and fetch. */
import { controlLayers } from '../controls/index.ts';
import { nodeListener } from '../hosts/node/listener.ts';
import { resolveOptions, type PetStoreOptions } from '../src/index.ts';
import { compose, toPetStore } from './compose.ts';
import type { PetStore } from './handler.ts';

/**
 * Creates the Pet Store API as one handler. Options are checked now: a bad one throws a `TypeError`.
 *
 * @example
 * import { createServer } from 'node:http';
 * const petstore = createPetStore({ apiKeys: { 'my-key': 'free' } });
 * createServer(petstore).listen(8080); // GET http://localhost:8080/v1/pets
 */
export function createPetStore(options: PetStoreOptions = {}): PetStore {
  return toPetStore(compose({ config: resolveOptions(options), layers: controlLayers }), nodeListener);
}
