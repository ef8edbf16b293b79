/** createTestPetStore: the Pet Store as a fake backend, with a manual clock, seeding, reset and a request log. */
import { createServerAdapter } from '@whatwg-node/server';
import { createPetStore, type PetStore, type PetStoreContext } from '../pet-store.ts';
import { apiKeyEntries, type PetStoreOptions } from '../options.ts';
import { memoryRateLimitStore } from '../rate-limit/memory-store.ts';
import type { Pet } from '../schemas.ts';
import { allPets, seedPets } from '../storage/bulk.ts';
import { memoryPetStorage } from '../storage/memory.ts';
import type { PetStorage } from '../storage/types.ts';
import { manualClock, type ManualClock } from './clock.ts';
import { createFaults, type Faults } from './faults.ts';

/** A ready API key per plan; a test store accepts all of them. */
export const TEST_KEYS = {
  free: 'test-key-free',
  pro: 'test-key-pro',
  business: 'test-key-business',
  enterprise: 'test-key-enterprise',
} as const;

const TEST_PLANS = {
  [TEST_KEYS.free]: 'free',
  [TEST_KEYS.pro]: 'pro',
  [TEST_KEYS.business]: 'business',
  [TEST_KEYS.enterprise]: { perMinute: 1_000_000, perDay: 1_000_000_000 },
} as const;

/** Options of {@link createTestPetStore}: the store's options, minus what the test store owns. */
export interface TestPetStoreOptions extends Omit<PetStoreOptions, 'now' | 'storage' | 'rateLimitStore'> {
  /** Where the manual clock starts. Default: the real time at creation. */
  readonly start?: Date | number | string;
}

/** One request the test store received and what it answered; the key is redacted. */
export interface RecordedExchange {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody: string;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly responseBody: string;
  /** The manual clock's time when it was answered. */
  readonly at: number;
}

/** A Pet Store for tests: a fetch handler plus controls. */
export type TestPetStore = PetStore & {
  /** A drop-in `fetch`: give it to a client, or assign it to `globalThis.fetch`. No network. */
  readonly fetch: typeof fetch;
  /** The clock every window, ban, key expiry and the sunset date follow. */
  readonly clock: ManualClock;
  /** A key per plan: `keys.free`, `keys.pro`, `keys.business`, `keys.enterprise`. */
  readonly keys: typeof TEST_KEYS;
  /** Every exchange so far, oldest first (cleared by `reset`). */
  readonly requests: readonly RecordedExchange[];
  /** Failures and delays for the next requests. */
  readonly faults: Faults;
  /** The base path the API is served under. */
  readonly basePath: string;
  /** Stores pets, validated like `POST /pets`; resolves to them with their ids. */
  seed(pets: readonly unknown[]): Promise<Pet[]>;
  /** Everything stored, in id order. */
  pets(): Promise<Pet[]>;
  /** Empties the store (ids from 1 again), clears quotas, bans, the log and pending faults. */
  reset(): Promise<void>;
};

/**
 * The Pet Store as a fake backend. Use `petstore.fetch` as your client's `fetch`: no network,
 * no ports, no sleeping. `listen(petstore)` (from this module) serves it on a port if you need one.
 *
 * @example
 * const petstore = createTestPetStore();
 * await petstore.seed([{ name: 'Rex', categoryId: 1 }]);
 * const response = await petstore.fetch('http://api.test/v1/pets', {
 *   headers: { authorization: `Bearer ${petstore.keys.free}` },
 * });
 */
export function createTestPetStore(options: TestPetStoreOptions = {}): TestPetStore {
  const { start, ...storeOptions } = options;
  const clock = manualClock(start);
  const faults = createFaults();
  const requests: RecordedExchange[] = [];
  let storage: PetStorage;
  let inner: PetStore;
  const build = () => {
    storage = memoryPetStorage();
    inner = createPetStore({
      ...storeOptions,
      apiKeys: new Map([...Object.entries(TEST_PLANS), ...apiKeyEntries(storeOptions.apiKeys)]),
      storage,
      rateLimitStore: memoryRateLimitStore(),
      now: clock.now,
    });
  };
  build();

  const handler = createServerAdapter<PetStoreContext>(async (request, context) => {
    const requestBody = request.body ? await request.clone().text() : '';
    const response = await faults.apply(request, async () => inner.fetch(request, context));
    requests.push({
      method: request.method,
      url: request.url,
      requestHeaders: redacted(request.headers),
      requestBody,
      status: response.status,
      responseHeaders: lowercased(response.headers),
      responseBody: await response.clone().text(),
      at: clock.now(),
    });
    return response;
  });

  // The adapter's own fetch reads a second argument after a Request as server context; this one
  // follows the fetch standard (`fetch(request, init)` included), so it can stand in for fetch.
  // Runtime adapters (Deno, Bun) still pass `{ clientAddress }` after a Request: that stays context.
  // handleRequest, not the adapter's fetch: that one reads request.signal, which Deno warns about.
  const fetchLike = async (input: RequestInfo | URL, init?: RequestInit | PetStoreContext) =>
    input instanceof Request && init !== undefined && 'clientAddress' in init
      ? handler.handleRequest(input, init)
      : handler.handleRequest(new Request(input, init as RequestInit | undefined), {});

  return Object.assign(handler, {
    fetch: fetchLike as typeof fetch,
    clock,
    keys: TEST_KEYS,
    requests,
    faults,
    basePath: storeOptions.basePath ?? '/v1',
    seed: (pets: readonly unknown[]) => seedPets(storage, pets, storeOptions.defaultStatus),
    pets: () => allPets(storage),
    async reset() {
      build();
      requests.length = 0;
      faults.clear();
    },
    // @whatwg-node's own types describe its adapter more narrowly than it behaves; TestPetStore states what it serves.
  }) as unknown as TestPetStore;
}

/** Headers as a record with lower-case names, whatever case the Headers implementation keeps. */
function lowercased(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name.toLowerCase()] = value));
  return record;
}

/** Request headers for the log, with the credential replaced (its scheme kept, for assertions). */
function redacted(headers: Headers): Record<string, string> {
  const record = lowercased(headers);
  if (record.authorization !== undefined) {
    const scheme = /^(\S+)\s/.exec(record.authorization)?.[1];
    record.authorization = scheme ? `${scheme} [redacted]` : '[redacted]';
  }
  return record;
}
