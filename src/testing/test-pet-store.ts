/** createTestPetStore: the Pet Store as a fake backend, with a manual clock, seeding, reset and a request log. */
import { apiKeyEntries } from '../auth/api-keys.ts';
import { createFaults, withFaults, type Faults } from '../faults.ts';
import type { PetStoreHandler } from '../handler.ts';
import { memoryLimitStore } from '../limits/memory-limit-store.ts';
import { resolveOptions, type PetStoreOptions } from '../options.ts';
import { createHandle, toPetStore, type Handle } from '../pet-store.ts';
import { allPets, seedPets } from '../storage/bulk.ts';
import { memoryPetStorage } from '../storage/memory-pet-storage.ts';
import type { Pet } from '../storage/pet.ts';
import type { PetStorage } from '../storage/pet-storage.ts';
import { manualClock, type ManualClock } from './clock.ts';

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
export interface TestPetStoreOptions extends Omit<PetStoreOptions, 'now' | 'storage' | 'limitStore'> {
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

/**
 * A Pet Store for tests: a handler (serve it, or mount it, like any Pet Store) plus controls.
 *
 * @example
 * const petstore: TestPetStore = createTestPetStore({ start: '2026-01-01T00:00:00Z' });
 * petstore.clock.advance(60_000);
 */
export interface TestPetStore extends PetStoreHandler {
  /** Exactly the global `fetch`: give it to a client, or assign it to `globalThis.fetch`. No network. */
  readonly fetch: typeof fetch;
  /** The clock every window, ban, key expiry and the sunset date follow. */
  readonly clock: ManualClock;
  /** A key per plan: `keys.free`, `keys.pro`, `keys.business`, `keys.enterprise`. */
  readonly keys: typeof TEST_KEYS;
  /** Every exchange so far, oldest first (cleared by `reset`). */
  readonly requests: readonly RecordedExchange[];
  /** Failures and delays for the next requests. */
  readonly faults: Faults;
  /** Stores pets, validated like `POST /pets`; resolves to them with their ids. */
  seed(pets: readonly unknown[]): Promise<Pet[]>;
  /** Everything stored, in id order. */
  pets(): Promise<Pet[]>;
  /** Empties the storage (ids from 1 again), clears quotas, bans, the log and pending faults. */
  reset(): Promise<void>;
}

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
  const apiKeys = new Map([...Object.entries(TEST_PLANS), ...apiKeyEntries(storeOptions.apiKeys)]);
  let storage: PetStorage = memoryPetStorage();
  // Checked once, so a bad option throws here; reset() swaps only the state.
  const config = resolveOptions({ ...storeOptions, apiKeys, storage, now: clock.now });
  let handle: Handle = createHandle(config);

  const served = withFaults((request, context) => handle(request, context), faults);
  const petstore = toPetStore(async (request, context) => {
    const requestBody = request.body ? await request.clone().text() : '';
    const response = await served(request, context);
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
  }, config.basePath);

  return Object.assign(petstore, {
    // The standard fetch: a second argument is a RequestInit, never a server context.
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => petstore(new Request(input, init))) as typeof fetch,
    clock,
    keys: TEST_KEYS,
    requests,
    faults,
    seed: (pets: readonly unknown[]) => seedPets(storage, pets, config.defaultStatus),
    pets: () => allPets(storage),
    async reset() {
      storage = memoryPetStorage();
      handle = createHandle({ ...config, storage, limitStore: memoryLimitStore() });
      requests.length = 0;
      faults.clear();
    },
  });
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
