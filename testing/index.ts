/** petstore-service/testing: the fake backend kit, and listen() on whichever runtime runs the tests. */
import type { PetStoreHandler } from '../compose/handler.ts';
import { LISTEN_OPTION_NAMES, type ListeningPetStore, type ListenOptions } from '../runtimes/serve.ts';
import { assertKnownOptions } from '../src/index.ts';
import { serve as serveOnBun } from '../runtimes/bun/index.ts';
import { serve as serveOnDeno } from '../runtimes/deno/index.ts';
import { serve as serveOnNode } from '../runtimes/node/index.ts';

export {
  createTestPetStore,
  TEST_KEYS,
  type TestPetStore,
  type TestPetStoreOptions,
  type TestSandbox,
  type WorldControls,
} from './test-pet-store.ts';
export {
  type SandboxKeys,
  manualClock,
  type ManualClock,
  type DelayRange,
  type FaultRule,
  type Faults,
  type PendingFault,
  generatedPets,
  type GenerateOptions,
  matching,
  type RecordedExchange,
  type RequestMatcher,
  type Verification,
  type Har,
  type HarEntry,
  type JournalFilter,
} from '../controls/index.ts';
export type { ListeningPetStore, ListenOptions } from '../runtimes/serve.ts';

/**
 * Serves `handler` on an ephemeral port of 127.0.0.1, with Deno.serve, Bun.serve or node:http,
 * whichever runtime this is: that runtime's `serve(handler, { port: 0, ...options })`. The URL
 * ends in the handler's base path. For clients that insist on a URL; most tests can use
 * `handler.fetch` with no network at all. `close()` leaves the handler usable.
 *
 * @param options - `port`, `hostname` and `signal`, as `serve` takes them; any other name is a TypeError.
 * @example
 * await using server = await listen(createTestPetStore());
 * await fetch(`${server.url}/pets`);
 */
export async function listen(handler: PetStoreHandler, options: ListenOptions = {}): Promise<ListeningPetStore> {
  // Only the options every runtime has: a test must not pass on one runtime and throw on another.
  assertKnownOptions(options, LISTEN_OPTION_NAMES, 'listen');
  const listenOptions = { port: 0, ...options };
  if ('Deno' in globalThis) return serveOnDeno(handler, listenOptions);
  if ('Bun' in globalThis) return serveOnBun(handler, listenOptions);
  return serveOnNode(handler, listenOptions);
}
