/** A fake backend's controls, one implementation for the test kit (in process) and the admin API (over HTTP): state, clock, faults, journal. */
import {
  allPets,
  createAnswer,
  memoryLimitStore,
  memoryPetStorage,
  render,
  seedPets,
  type Answer,
  type Handle,
  type Host,
  type Injected,
  type LimitStore,
  type Pet,
  type PetStorage,
  type RequestView,
  type ResolvedOptions,
} from '../src/index.ts';
import type { ManualClock } from './clock/clock.ts';
import { interruptedReply, refusalQuotaHeaders } from './faults/fault-answers.ts';
import { createFaults, type FaultInjector, type FaultRule } from './faults/faults.ts';
import { recordedExchange, REFUSED_STATUSES, type RecordedExchange } from './journal/journal.ts';
import { bodyTap, readingThrough, unreadBody } from './journal/journal-body.ts';
import { createJournal, type JournalBudget } from './journal/journal-memory.ts';
import { redactSecrets } from './secrets/redaction.ts';
import { boundedStorage, type BoundedStorage, type PetBudget } from './pets/pet-budget.ts';
import { MAX_SEED, seededRandom } from './pets/random.ts';
import { petsToSeed, type SeedInput } from './pets/seed-schemas.ts';

/** What controls are made of. */
export interface ControlSettings {
  /** The store's options; its storage and limit store are replaced by fresh memory ones on every reset, its clock by `clock`. */
  readonly config: ResolvedOptions;
  /** The clock every window, ban and the sunset date follow. */
  readonly clock: ManualClock;
  /** Faults injected at the start and again after every reset (the command's `--delay`, `--fail-rate`). */
  readonly standingFaults?: readonly FaultRule[];
  /** The most exchanges the journal keeps: the newest, the oldest dropped. Default 10,000. */
  readonly journalSize?: number;
  /** The bytes this journal shares with the other worlds' (journal-memory.ts). Default: 16 MiB of its own. */
  readonly journalBudget?: JournalBudget;
  /**
   * Stores kept across resets instead of fresh memory ones: the service worker's pets in IndexedDB
   * (which survive reloads), and a limit store of its user's. Emptying them is the caller's: reset() is synchronous.
   */
  readonly kept?: { readonly storage?: PetStorage; readonly limitStore?: LimitStore };
  /** The count of pets all worlds share (pet-budget.ts); a reset gives this world's back. Memory storage only: not with `kept.storage`. */
  readonly petBudget?: PetBudget;
  /** Told each exchange once it is journaled (the admin API's live feed). */
  readonly onRecord?: (exchange: RecordedExchange) => void;
}

/** A store's controls: what the test kit exposes and the admin API serves. */
export interface Controls {
  readonly clock: ManualClock;
  readonly faults: FaultInjector;
  /** The journal's exchanges (at most `journalSize`, the newest), oldest first: a copy, read anew each time. */
  readonly requests: readonly RecordedExchange[];
  /** Empties the journal. */
  clearRequests(): void;
  /** The request path behind the faults, recording each exchange in `requests`. */
  readonly handle: Handle;
  /**
   * Stores pets, validated like `POST /pets`, or `{ generate: { count, seed } }` generated ones
   * (generated-pets.ts): a TypeError naming the first invalid one (0-based), or the problem with
   * `generate`, stores nothing.
   */
  seed(input: SeedInput): Promise<Pet[]>;
  /**
   * Has the faults draw their delay ranges and `probability` hits from a stream seeded with `seed`
   * (0 to 2^32 - 1), started again by every reset, so a test sees the same delays every run;
   * `undefined` goes back to `Math.random`. Anything else is a TypeError.
   */
  useRandomSeed(seed: number | undefined): void;
  /** Everything stored, in id order. */
  pets(): Promise<Pet[]>;
  /** Requests held by a fault end with a 503, unhandled; then pets, ids, counters, bans, idempotency keys, faults and the journal start over. */
  reset(): void;
}

/** Controls over a store kept in memory. */
export function createControls({
  config,
  clock,
  standingFaults = [],
  journalSize = 10_000,
  journalBudget,
  kept = {},
  petBudget,
  onRecord,
}: ControlSettings): Controls {
  // A 429 fault tells the caller's plan, as a real refusal does.
  let randomSeed: number | undefined;
  let random = Math.random;
  const faults = createFaults({ random: () => random(), quotaHeaders: refusalQuotaHeaders(config.apiKeys, clock.now) });
  const journal = createJournal(journalSize, journalBudget);
  // Redacted by their shape, sandbox keys and selectors need no list: only the world's keys (a
  // sandbox's include the main world's, which a request may bring) and the admin token are named.
  const redact = redactSecrets(config.apiKeys.keys(), config.admin ? [config.admin.token] : []);
  let generation = 0;
  let storage: PetStorage;
  let bounded: BoundedStorage | undefined;
  let current: Answer;
  const start = () => {
    random = randomSeed === undefined ? Math.random : seededRandom(randomSeed);
    storage = kept.storage ?? memoryPetStorage();
    bounded = petBudget && !kept.storage ? boundedStorage(storage, petBudget) : undefined;
    if (bounded) storage = bounded.storage;
    current = createAnswer({ ...config, now: clock.now, storage, limitStore: kept.limitStore ?? memoryLimitStore() });
    for (const rule of standingFaults) faults.inject(rule);
  };
  start();

  /**
   * The API's answer, or the reset's 503 when a reset came first, or came while the API worked
   * (reading the body, say): what it did went with the state before.
   */
  const answerIn = async (arrivedIn: number, view: RequestView, host: Host, injected: Injected | undefined): Promise<Response> => {
    if (generation !== arrivedIn) return interruptedReply();
    const reply = await current(view, host, injected);
    return generation === arrivedIn ? render(reply, { head: view.method === 'HEAD', ResponseClass: host.ResponseClass }) : interruptedReply();
  };

  const handle: Handle = async (request, host) => {
    const started = performance.now();
    // A request that arrived before a reset never reaches the state after it: no ghost pets.
    const arrivedIn = generation;
    // The API reads the body through the tap, so the journal holds what it read and, once it has
    // answered, reads no further than the body limit: never a whole upload the API refused.
    const tap = bodyTap(request.body, config.maxBodyBytes);
    const view = readingThrough(request, tap.body);
    const response = await faults.apply(request, (injected) => answerIn(arrivedIn, view, host, injected));
    const ms = performance.now() - started;
    // A refusal's body is left unread: the flood a keyless caller can send keeps none of its uploads.
    const requestBody = REFUSED_STATUSES.has(response.status) ? unreadBody(request) : await tap.kept();
    // The plan the path counted the request against, on the notes a host with telemetry (or the admin layers) hands it.
    const exchange = await recordedExchange({ request, requestBody, response, plan: host.notes?.plan, ms, now: clock.now(), redact });
    if (generation === arrivedIn) {
      journal.record(exchange);
      onRecord?.(exchange);
    }
    return response;
  };

  return {
    clock,
    faults,
    get requests() {
      return journal.entries();
    },
    clearRequests: () => journal.clear(),
    handle,
    // Generated before anything is stored, so a bad `generate` stores nothing either.
    seed: async (input) => (bounded ? bounded.seed(petsToSeed(input), config.defaultStatus) : seedPets(storage, petsToSeed(input), config.defaultStatus)),
    useRandomSeed(seed) {
      if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED)) {
        throw new TypeError(`randomSeed must be a whole number from 0 to ${MAX_SEED}, got ${String(seed)}`);
      }
      randomSeed = seed;
      random = seed === undefined ? Math.random : seededRandom(seed);
    },
    pets: () => allPets(storage),
    reset() {
      generation++;
      faults.interrupt();
      faults.clear();
      journal.clear();
      // The world's pets go back to the budget with it; a create still under way gives its own back.
      bounded?.release();
      start();
    },
  };
}
