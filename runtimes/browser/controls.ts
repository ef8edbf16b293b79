/**
 * What `start()` gives a page to drive the service worker's worlds (the main one and its
 * sandboxes): seed, pets, clock, faults, by postMessage, and the journal as HAR, made here from the
 * exchanges the worker hands over. Types only from the core, and of the controls only the HAR
 * builder and the journal's filter, so the page's module stays small.
 */
import {
  exchangesMatching,
  harOf,
  type FaultRule,
  type Har,
  type JournalFilter,
  type PendingFault,
  type RecordedExchange,
  type SandboxKeys,
  type SeedInput,
} from '../../controls/without-admin.ts';
import type { Pet } from '../../src/index.ts';
import { type CLAIM, CONTROL, KEEP_ALIVE, type RESET, type ControlMessage, type ControlOperation, type WorkerReply } from '../service-worker/protocol.ts';

/**
 * The controls of one world in the worker, each resolving once the worker has done it and rejecting
 * with the worker's error (a bad fault rule or seed is a TypeError naming the field).
 *
 * @example
 * const petstore = await start({ url: '/petstore-service-worker.js' });
 * await petstore.seed({ generate: { count: 25, seed: 7 } });
 * await petstore.clock.advance(60_000); // a new minute window
 */
export interface PageWorldControls {
  /** Empties the pets and forgets rate-limit counters, bans and faults; ids start at 1 again. The clock stays where it is. */
  reset(): Promise<void>;
  /** Stores pets, each validated like a `POST /pets` body, or `{ generate: { count, seed } }` generated ones; resolves to them with their ids. */
  seed(input: SeedInput): Promise<Pet[]>;
  /** Everything stored, in id order. */
  pets(): Promise<Pet[]>;
  /** The clock quotas, bans and the sunset date follow: real until moved, then where it was put. Each resolves to the time, epoch ms. */
  readonly clock: {
    now(): Promise<number>;
    /** Moves it `ms` forward. */
    advance(ms: number): Promise<number>;
    /** Puts it at `time` (a Date, epoch ms or an ISO string). */
    set(time: Date | number | string): Promise<number>;
  };
  /** Error answers, network failures and delays for the next requests (rules as in docs/testing.md). */
  readonly faults: {
    /** Adds a rule; resolves to its id. */
    inject(rule: FaultRule): Promise<string>;
    clear(): Promise<void>;
    /** The rules that can still apply, oldest first. */
    list(): Promise<PendingFault[]>;
  };
  /**
   * The world's journal as HAR 1.2, for Chrome DevTools or Playwright's `routeFromHAR`: the
   * exchanges `filter` names (`method`, `path`, `status`, `since` the world's time in epoch ms,
   * `limit` the newest n), oldest first, keys and selectors redacted.
   */
  har(filter?: JournalFilter): Promise<Har>;
}

/**
 * A world of its own in the worker (pets and ids from 1, quotas, bans, clock, faults), chosen by
 * its `keys` (a request with `authorization: Bearer <keys.pro>` lives in it, whichever page sends
 * it) or by its `selector` with a key of the main world.
 *
 * @example
 * const sandbox = await petstore.sandbox({ seed: [{ name: 'Rex', categoryId: 1 }] });
 * await fetch('/v1/pets', { headers: { authorization: `Bearer ${sandbox.keys.pro}` } });
 * await fetch('/v1/pets', { headers: { authorization: 'Bearer demo-key', 'petstore-sandbox': sandbox.selector } });
 * await sandbox.delete(); // its keys get 401, its selector 404
 */
export interface PageSandbox extends PageWorldControls {
  readonly id: string;
  /** A key per plan: `keys.free`, `keys.pro`, `keys.business`. */
  readonly keys: SandboxKeys;
  /** A secret that sends a request with a main-world key here: `Petstore-Sandbox: <selector>`, or `petstore.sandbox=<selector>` in `baggage`. */
  readonly selector: string;
  /** Deletes it: its keys get 401 from then on, its selector 404. */
  delete(): Promise<void>;
}

/** Sends `op` with `args` to the worker for the world `sandbox` (none: the main world), resolving to its result. */
export type Ask = (op: ControlOperation, sandbox: string | undefined, args?: readonly unknown[]) => Promise<unknown>;

/** Chrome stops a worker after 30 idle seconds, and the sandboxes, clock and faults in its memory with it; any message is an event that restarts that count. */
const KEEP_ALIVE_MS = 20_000;

/**
 * {@link Ask} over postMessage to whichever worker `current()` returns (it changes when a new
 * version takes over), each request with a MessageChannel of its own for the reply. Once the page
 * keeps state in the worker's memory (moves a clock, injects a fault, opens a sandbox), it pings
 * the worker every 20 seconds so the browser does not stop it.
 *
 * @example
 * const ask = asker(() => navigator.serviceWorker.controller!);
 */
export function asker(current: () => ServiceWorker): Ask {
  let pinging: ReturnType<typeof setInterval> | undefined;
  // Async: a page without a worker to ask (current() throws) gets a rejection, as from the worker.
  return async (op, sandbox, args = []) => {
    if (!pinging && (op === 'open' || op === 'advance' || op === 'set' || op === 'inject')) {
      pinging = setInterval(() => current().postMessage({ type: KEEP_ALIVE }), KEEP_ALIVE_MS);
    }
    const reply = await replyTo(current(), { type: CONTROL, op, sandbox, args });
    if (reply.ok) return reply.value;
    throw reply.name === 'TypeError' ? new TypeError(reply.message) : new Error(reply.message);
  };
}

/**
 * Posts `message` to `worker` with a MessageChannel of its own for the answer, and resolves to the
 * worker's reply: the one way the page asks the worker anything.
 *
 * @example
 * const reply = await replyTo(registration.active!, { type: CLAIM }); // { ok: true }
 */
export function replyTo(worker: ServiceWorker, message: ControlMessage | { readonly type: typeof CLAIM | typeof RESET }): Promise<WorkerReply> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = ({ data }: MessageEvent<WorkerReply>) => {
      channel.port1.close();
      resolve(data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

/**
 * The controls of the world `sandbox` (none: the main world), whose `reset` is `reset`.
 *
 * @example
 * const main = worldControls(ask, undefined, () => askToReset());
 */
export function worldControls(ask: Ask, sandbox: string | undefined, reset = () => ask('reset', sandbox)): PageWorldControls {
  const call =
    <T>(op: ControlOperation) =>
    (...args: unknown[]) =>
      ask(op, sandbox, args) as Promise<T>;
  return {
    reset: reset as () => Promise<void>,
    seed: call<Pet[]>('seed'),
    pets: call<Pet[]>('pets'),
    clock: { now: call<number>('now'), advance: call<number>('advance'), set: call<number>('set') },
    faults: { inject: call<string>('inject'), clear: call<void>('clear'), list: call<PendingFault[]>('list') },
    // Filtered and made here: the worker only hands over the exchanges, and its script stays small.
    har: async (filter: JournalFilter = {}) => harOf(exchangesMatching(await call<RecordedExchange[]>('requests')(), filter)),
  };
}

/**
 * Opens a sandbox in the worker, seeded with `seed` (anything `seed()` takes); rejects with the
 * worker's error when `seed` is bad (no sandbox is left open) or the worker's cap is reached.
 *
 * @example
 * const sandbox = await openSandbox(ask, { seed: { generate: { count: 10, seed: 1 } } });
 */
export async function openSandbox(ask: Ask, { seed }: { readonly seed?: SeedInput } = {}): Promise<PageSandbox> {
  const { id, keys, selector } = (await ask('open', undefined, [seed])) as { id: string; keys: SandboxKeys; selector: string };
  return { id, keys, selector, ...worldControls(ask, id), delete: () => ask('delete', id) as Promise<void> };
}
