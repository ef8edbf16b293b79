/** petstore-service/testing: the fake backend kit, and listen() on whichever runtime runs the tests. */
import type { ListeningPetStore, PetStore } from '../../src/index.ts';
import { serve as serveOnBun } from '../bun/index.ts';
import { serve as serveOnDeno } from '../deno/index.ts';
import { serve as serveOnNode } from '../node/index.ts';

export * from '../../src/testing/index.ts';


/**
 * Serves `handler` on an ephemeral port of 127.0.0.1, with Deno.serve, Bun.serve or node:http,
 * whichever runtime this is. For clients that insist on a URL; most tests can use
 * `handler.fetch` with no network at all.
 *
 * @example
 * await using server = await listen(createTestPetStore());
 * await fetch(`${server.url}/pets`);
 */
export async function listen(handler: PetStore & { readonly basePath?: string }): Promise<ListeningPetStore> {
  const options = { port: 0, handler, basePath: handler.basePath ?? '/v1' };
  if ('Deno' in globalThis) return serveOnDeno(options);
  if ('Bun' in globalThis) return serveOnBun(options);
  return serveOnNode(options);
}
