/** A fake backend's controls, one implementation for the test kit (in process) and the admin API (over HTTP): state, clock, faults, journal. */
import {
  allPets,
  createHandle,
  memoryLimitStore,
  memoryPetStorage,
  seedPets,
  type Handle,
  type Pet,
  type PetStorage,
  type ResolvedOptions,
} from '../src/index.ts';
import type { ManualClock } from './clock.ts';
import { createFaults, interruptedReply, refusalQuotaHeaders, type FaultInjector, type FaultRule } from './faults.ts';
import { recordedExchange, type RecordedExchange } from './journal.ts';

/** What controls are made of. */
export interface ControlSettings {
  /** The store's options; its storage and limit store are replaced by fresh memory ones on every reset, its clock by `clock`. */
  readonly config: ResolvedOptions;
  /** The clock every window, ban and the sunset date follow. */
  readonly clock: ManualClock;
  /** Faults injected at the start and again after every reset (the command's `--delay`, `--fail-rate`). */
  readonly standingFaults?: readonly FaultRule[];
}

/** A store's controls: what the test kit exposes and the admin API serves. */
export interface Controls {
  readonly clock: ManualClock;
  readonly faults: FaultInjector;
  /** Every exchange so far, oldest first. */
  readonly requests: RecordedExchange[];
  /** The request path behind the faults, recording each exchange in `requests`. */
  readonly handle: Handle;
  /** Stores pets, validated like `POST /pets`: a TypeError naming the first invalid one (0-based) stores nothing. */
  seed(pets: readonly unknown[]): Promise<Pet[]>;
  /** Everything stored, in id order. */
  pets(): Promise<Pet[]>;
  /** Requests held by a fault end with a 503, unhandled; then pets, ids, counters, bans, idempotency keys, faults and the journal start over. */
  reset(): void;
}

/** Controls over a store kept in memory. */
export function createControls({ config, clock, standingFaults = [] }: ControlSettings): Controls {
  // A 429 fault tells the caller's plan, as a real refusal does.
  const faults = createFaults({ quotaHeaders: refusalQuotaHeaders(config.apiKeys, clock.now) });
  const requests: RecordedExchange[] = [];
  let generation = 0;
  let storage: PetStorage;
  let current: Handle;
  const start = () => {
    storage = memoryPetStorage();
    current = createHandle({ ...config, now: clock.now, storage, limitStore: memoryLimitStore() });
    for (const rule of standingFaults) faults.inject(rule);
  };
  start();

  const handle: Handle = async (request, host) => {
    const started = performance.now();
    // A request that arrived before a reset never reaches the state after it: no ghost pets.
    const arrivedIn = generation;
    const requestBody = request.body ? await request.clone().text() : '';
    const response = await faults.apply(request, async (injected) => (generation === arrivedIn ? current(request, host, injected) : interruptedReply()));
    const exchange = await recordedExchange({ request, requestBody, response, ms: performance.now() - started, now: clock.now() });
    if (generation === arrivedIn) requests.push(exchange);
    return response;
  };

  return {
    clock,
    faults,
    requests,
    handle,
    seed: (pets) => seedPets(storage, pets, config.defaultStatus),
    pets: () => allPets(storage),
    reset() {
      generation++;
      faults.interrupt();
      faults.clear();
      requests.length = 0;
      start();
    },
  };
}
