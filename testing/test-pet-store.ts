/** createTestPetStore: the Pet Store as a fake backend in process, on the same controls the admin API serves over HTTP. */
import {
  manualClock,
  type ManualClock,
  type Controls,
  type Faults,
  verifyRequests,
  type RecordedExchange,
  type Verification,
  controlLayers,
  type SandboxKeys,
  exchangesMatching,
  harOf,
  type Har,
  type JournalFilter,
} from '../controls/index.ts';
import { compose, toPetStore } from '../compose/compose.ts';
import type { PetStoreHandler } from '../compose/handler.ts';
import { nodeListener } from '../hosts/node/listener.ts';
import { adminBound, apiKeyEntries, assertKnownOptions, PET_STORE_OPTION_NAMES, resolveOptions, type Pet, type PetStoreOptions } from '../src/index.ts';

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
  /** The most {@link TestPetStore.sandbox | sandboxes} at once, 1 to 100,000. Default 1,000 (or `admin.sandboxes`). */
  readonly sandboxes?: number;
  /** A sandbox unused this many real minutes is deleted, 1 to 10,080. Default 30 (or `admin.sandboxIdleMinutes`). */
  readonly sandboxIdleMinutes?: number;
  /** The exchanges each journal keeps, 1 to 1,000,000. Default 10,000 (or `admin.journal`). */
  readonly journal?: number;
  /**
   * The mebibytes all journals keep together (the main world and every sandbox), 1 to 1,024: the
   * oldest exchange of any world goes first. Default 16 (or `admin.journalMiB`).
   */
  readonly journalMiB?: number;
  /**
   * The most pets in all worlds together (the main world and every sandbox), 1 to 10,000,000: a
   * create past it is a 507 `insufficient_storage`, a `seed()` past it rejects with that error and
   * stores nothing. Default 250,000 (or `admin.pets`).
   */
  readonly pets?: number;
  /**
   * Seeds the faults' random draws (delay ranges, `probability`), 0 to 2^32 - 1, so a test gets the
   * same delays and hits every run, and again after each `reset()`. Default: `Math.random`.
   */
  readonly randomSeed?: number;
}

/**
 * The controls of one world: the test store's own, and each sandbox's.
 *
 * @example
 * const world: WorldControls = petstore; // or: await petstore.sandbox()
 * world.clock.advance(60_000);
 */
export interface WorldControls {
  /** The clock every window, ban, key expiry and the sunset date follow. */
  readonly clock: ManualClock;
  /** Every exchange so far, oldest first (cleared by `reset`); find them with {@link matching}. */
  readonly requests: readonly RecordedExchange[];
  /** Error answers, network faults and delays for the next requests. */
  readonly faults: Faults;
  /** Stores pets, validated like `POST /pets`; resolves to them with their ids. One invalid pet (a TypeError naming it) stores none. */
  seed(pets: SeedInput): Promise<Pet[]>;
  /** Everything stored, in id order. */
  pets(): Promise<Pet[]>;
  /**
   * Starts over: requests a fault is holding (delayed or hung) end with a JSON 503 and store
   * nothing; then pets (ids from 1 again), quotas, bans, idempotency keys, faults and the log are cleared.
   */
  reset(): Promise<void>;
  /** Throws an Error listing every recorded request unless exactly `times` match (`method`, `path`, `status`). */
  verify(verification: Verification): void;
  /**
   * The journal as HAR 1.2, for Chrome DevTools or Playwright's `routeFromHAR`: the exchanges
   * `filter` names (as `GET /__admin/requests` takes it: `method`, `path`, `status`, `since` the
   * store's time in epoch ms, `limit` the newest n), oldest first, secrets redacted.
   */
  har(filter?: JournalFilter): Har;
  /** Throws an Error listing the faults that never applied, if any. */
  assertNoPendingFaults(): void;
}

/** What `seed` takes. */
type SeedInput = Parameters<Controls['seed']>[0];

/**
 * A world of its own inside a test store: pets and ids from 1, quotas and bans, idempotency keys,
 * clock, faults and journal. Requests carrying one of its `keys` live in it, whichever `fetch` or
 * server they reach the store by.
 *
 * @example
 * await using sandbox = await petstore.sandbox({ seed: [{ name: 'Rex', categoryId: 1 }] });
 * await petstore.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${sandbox.keys.free}` } });
 */
export interface TestSandbox extends WorldControls {
  /** Its id, as `GET /__admin/sandboxes` lists it when the store serves the admin API. */
  readonly id: string;
  /** A key per plan: `keys.free`, `keys.pro`, `keys.business`. */
  readonly keys: SandboxKeys;
  /**
   * A secret that sends a request to this sandbox with a key of the store's own (`Petstore-Sandbox:
   * <selector>`, or `petstore.sandbox=<selector>` in `baggage`): `pssel_` and 32 random characters.
   */
  readonly selector: string;
  /** Ends its held requests with a 503 and deletes it: its keys get 401 from then on. */
  delete(): Promise<void>;
  /** `delete()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A Pet Store for tests: a handler (serve it, or mount it, like any Pet Store) plus controls.
 *
 * @example
 * const petstore: TestPetStore = createTestPetStore({ start: '2026-01-01T00:00:00Z' });
 * petstore.clock.advance(60_000);
 */
export interface TestPetStore extends PetStoreHandler, WorldControls {
  /** Exactly the global `fetch`: give it to a client, or assign it to `globalThis.fetch`. No network. */
  readonly fetch: typeof fetch;
  /** A key per plan: `keys.free`, `keys.pro`, `keys.business`, `keys.enterprise`. */
  readonly keys: typeof TEST_KEYS;
  /**
   * Opens a {@link TestSandbox}, a world of its own (seeded with `seed`, anything `seed()` takes).
   * Its `reset()` and this store's leave each other alone. Rejects with an Error naming the cap
   * when `sandboxes` are open.
   */
  sandbox(options?: { readonly seed?: SeedInput }): Promise<TestSandbox>;
}

/**
 * The Pet Store as a fake backend. Use `petstore.fetch` as your client's `fetch`: no network,
 * no ports, no sleeping. `listen(petstore)` (from this module) serves it on a port if you need one.
 * It never warns `PETSTORE_NO_CLIENT_ADDRESS` (its callers are the test's own); other warnings go
 * to `onError`, or stderr, as a store's do (docs/errors.md#warnings).
 *
 * @example
 * const petstore = createTestPetStore();
 * await petstore.seed([{ name: 'Rex', categoryId: 1 }]);
 * const response = await petstore.fetch('http://api.test/v1/pets', {
 *   headers: { authorization: `Bearer ${petstore.keys.free}` },
 * });
 */
export function createTestPetStore(options: TestPetStoreOptions = {}): TestPetStore {
  checkTestOptions(options);
  const { start, sandboxes: most, sandboxIdleMinutes, journal, journalMiB, pets, randomSeed, ...storeOptions } = options;
  const clock = manualClock(start);
  const apiKeys = new Map([...Object.entries(TEST_PLANS), ...apiKeyEntries(storeOptions.apiKeys)]);
  // Checked once, so a bad option throws here; reset() swaps only the state.
  // A fake backend answers a ban at once (banHoldMs 0): its clock is the test's, and a held 429 would be a real second's wait.
  const config = resolveOptions({ banHoldMs: 0, ...storeOptions, apiKeys, now: clock.now });
  // Its callers are the test's own code in this process (MSW hands it Requests, with no address to
  // pass): one caller sharing one bucket is what a test means, not a host's mistake.
  config.warnings.mute('PETSTORE_NO_CLIENT_ADDRESS');
  const bounds = {
    sandboxes: adminBound('sandboxes', most ?? config.admin?.sandboxes, 'sandboxes'),
    sandboxIdleMinutes: adminBound('sandboxIdleMinutes', sandboxIdleMinutes ?? config.admin?.sandboxIdleMinutes, 'sandboxIdleMinutes'),
    journal: adminBound('journal', journal ?? config.admin?.journal, 'journal'),
    journalMiB: adminBound('journalMiB', journalMiB ?? config.admin?.journalMiB, 'journalMiB'),
    pets: adminBound('pets', pets ?? config.admin?.pets, 'pets'),
  };
  const composed = compose({ config, clock, layers: controlLayers, bounds });
  composed.controls!.useRandomSeed(randomSeed);
  const sandboxes = composed.sandboxes!;

  const sandbox = async ({ seed }: { readonly seed?: SeedInput } = {}): Promise<TestSandbox> => {
    const opened = sandboxes.open();
    if (!opened) throw new Error(`sandbox: ${sandboxes.max} sandboxes are open, the most at once (the sandboxes option); delete one first`);
    const { id, keys, selector, controls } = opened;
    controls.useRandomSeed(randomSeed);
    if (seed !== undefined) await controls.seed(seed);
    const remove = async () => void sandboxes.delete(id);
    return Object.defineProperties(worldControls(controls), {
      id: { value: id, enumerable: true },
      keys: { value: keys, enumerable: true },
      selector: { value: selector, enumerable: true },
      delete: { value: remove },
      [Symbol.asyncDispose]: { value: remove },
    }) as TestSandbox;
  };
  // The test kit's members laid over the store: its world's controls, and in place of the store's fetch the standard one.
  return toPetStore(
    composed,
    nodeListener,
    (store) =>
      Object.defineProperties(worldControls(composed.controls!), {
        // The standard fetch: a second argument is a RequestInit, never a server context.
        fetch: {
          value: ((input: RequestInfo | URL, init?: RequestInit) => store(new Request(input, init))) as typeof fetch,
          enumerable: true,
          writable: true,
          configurable: true,
        },
        keys: { value: TEST_KEYS, enumerable: true },
        sandbox: { value: sandbox },
      }) as WorldControls & Pick<TestPetStore, 'fetch' | 'keys' | 'sandbox'>,
  );
}

/** The store's options the test store decides itself, and what to use instead: a test that passes one gets this, not a store that ignores it. */
const OWNED: Readonly<Record<string, string>> = {
  now: 'its manual clock): give start for where the clock starts, and move it with petstore.clock.advance() or set()',
  storage: 'memory, which seed() and reset() work on): give pets with petstore.seed(), or use createPetStore({ storage }) to run your own store',
  limitStore: 'memory, which reset() clears and its clock moves): use createPetStore({ limitStore }) to run your own store',
};

/** The test kit's own options, beside the store's. */
const OWN_OPTIONS = ['start', 'sandboxes', 'sandboxIdleMinutes', 'journal', 'journalMiB', 'pets', 'randomSeed'];

/** A TypeError, in createTestPetStore's name, for an option the test store owns or does not know. */
function checkTestOptions(options: object): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('createTestPetStore: options must be an object');
  const owned = Object.keys(OWNED).find((name) => Object.hasOwn(options, name));
  if (owned !== undefined) throw new TypeError(`createTestPetStore: ${owned} is the test store's own (${OWNED[owned]}`);
  assertKnownOptions(options, [...PET_STORE_OPTION_NAMES.filter((name) => !Object.hasOwn(OWNED, name)), ...OWN_OPTIONS], 'createTestPetStore');
}

/** The test kit's face of one world's controls; `requests` read live, as a reset or the ring changes them. */
function worldControls(controls: Controls): WorldControls {
  return {
    clock: controls.clock,
    get requests() {
      return controls.requests;
    },
    faults: controls.faults,
    seed: controls.seed,
    pets: controls.pets,
    reset: async () => controls.reset(),
    verify: (verification: Verification) => verifyRequests(controls.requests, verification),
    har: (filter: JournalFilter = {}) => harOf(exchangesMatching(controls.requests, filter)),
    assertNoPendingFaults() {
      const pending = controls.faults.list();
      if (pending.length > 0) throw new Error(`${pending.length} fault(s) never applied:\n${pending.map((fault) => `  ${JSON.stringify(fault)}`).join('\n')}`);
    },
  };
}
