/** Sandboxes: whole fake worlds inside one server (pets, quotas, clock, faults, journal), each chosen by its own API keys or by its selector. */
import { ApiError, bearerToken, corsHeaders, errorReply, render, withHeaders, type Handle, type Plan, type ResolvedOptions } from '../../src/index.ts';
import type { ManualClock } from '../clock/clock.ts';
import { createControls, type Controls } from '../controls.ts';
import type { RecordedExchange } from '../journal/journal.ts';
import type { JournalBudget } from '../journal/journal-memory.ts';
import type { PetBudget } from '../pets/pet-budget.ts';
import { newSandboxId, newSandboxKeys, newSandboxSelector, SANDBOX_PLANS, sandboxIdOf, type SandboxKeys } from '../secrets/sandbox-keys.ts';
import { selectorOf } from './sandbox-selector.ts';

/** One sandbox: its id, its keys, its selector and the controls over its world. */
export interface Sandbox {
  readonly id: string;
  readonly keys: SandboxKeys;
  /**
   * A secret (newSandboxSelector, sandbox-keys.ts) that sends a request to this sandbox, in a
   * `Petstore-Sandbox` header or as the `petstore.sandbox` member of `baggage`, whichever key of the
   * main world or of this sandbox it carries.
   */
  readonly selector: string;
  readonly controls: Controls;
  /** When it was opened, epoch ms of the real clock. */
  readonly createdAt: number;
  /** When a request or an admin call last used it, epoch ms of the real clock. */
  readonly lastUsedAt: number;
}

/** What sandboxes are made of. */
export interface SandboxSettings {
  /** The main world's options: a sandbox has them all but the keys, which are its own. */
  readonly config: ResolvedOptions;
  /** A new sandbox's clock. */
  readonly clock: () => ManualClock;
  /** The most at once. */
  readonly max: number;
  /** A sandbox unused this long is deleted. */
  readonly idleMs: number;
  /** Real time, which idleness is measured on: never a world's clock, which a test may move a year ahead. */
  readonly now: () => number;
  /** The exchanges each sandbox's journal keeps. */
  readonly journalSize?: number;
  /** The bytes every sandbox's journal shares with the main world's (journal-memory.ts). */
  readonly journalBudget?: JournalBudget;
  /** The count of pets every world draws on (pet-budget.ts): a sandbox's pets go back to it when the sandbox goes. */
  readonly petBudget?: PetBudget;
  /** Told each exchange a sandbox journals, with its id. */
  readonly onRecord?: (sandbox: string, exchange: RecordedExchange) => void;
  /** Where each sandbox's world lives: `here` (default), or `elsewhere` (see {@link Sandboxes.worlds}). */
  readonly worlds?: SandboxWorlds;
}

/**
 * Where the sandboxes' worlds live: `here`, in this process beside the registry; or `elsewhere`,
 * each in an instance of its own (the Workers fake backend's Durable Objects), the registry keeping
 * only its id, keys, selector and times, so this process cannot count its pets or exchanges.
 *
 * @example
 * const worlds: SandboxWorlds = 'elsewhere';
 */
export type SandboxWorlds = 'here' | 'elsewhere';

/**
 * The sandboxes of one server. Idle ones are deleted on the real clock: by a timer set for the
 * next to expire (one that never keeps a process alive), and by any request or call that comes first.
 *
 * @example
 * const sandboxes = createSandboxes({ config, clock: () => manualClock(), max: 1_000, idleMs: 30 * 60_000, now: Date.now });
 * const { id, keys } = sandboxes.open()!;
 */
export interface Sandboxes {
  /**
   * A new, empty sandbox, or `undefined` when `max` are open. `given` an id and keys made elsewhere
   * (the Workers fake backend's main object makes them; the sandbox's own object holds its world),
   * it opens that one, replacing a sandbox of the same id.
   */
  open(given?: { readonly id: string; readonly keys: SandboxKeys; readonly selector?: string }): Sandbox | undefined;
  /** The sandbox `id`, marked as used, or `undefined` (never opened, deleted or idle too long). */
  get(id: string): Sandbox | undefined;
  /**
   * The sandbox `key` is one of the keys of, marked as used, or `undefined`: a key of no open
   * sandbox, or a wrong secret for one, marks nothing, so guessing never keeps a sandbox alive.
   */
  byKey(key: string | undefined): Sandbox | undefined;
  /** Every open sandbox, least recently used first. */
  list(): Sandbox[];
  /** Ends the sandbox's held requests with a 503 and forgets it; `false` if there was none. */
  delete(id: string): boolean;
  /**
   * `handle` for the requests of no sandbox; each sandbox's own for a request carrying its selector
   * (then with a main-world key or one of its own: a key of another sandbox is a 409
   * `sandbox_conflict`, a selector of no open sandbox a 404) or, with none, one of its keys.
   */
  route(handle: Handle): Handle;
  readonly max: number;
  readonly size: number;
  /** Where its sandboxes' worlds live: with `elsewhere`, a sandbox's `controls` here hold none of its pets or exchanges. */
  readonly worlds: SandboxWorlds;
}

/** A selector of no open sandbox: never the main world's answer, which would mix the worlds a test keeps apart. */
const NO_SUCH_SELECTOR = new ApiError({
  status: 404,
  code: 'not_found',
  message: 'No open sandbox has this selector (Petstore-Sandbox or petstore.sandbox in baggage): deleted, idle too long, or never opened.',
});

/** A key of one sandbox sent with the selector of another: which world was meant cannot be told. */
const CONFLICT = new ApiError({
  status: 409,
  code: 'sandbox_conflict',
  message: 'A key of one sandbox with the selector of another: send that sandbox\u2019s key, a main-world key, or no selector.',
});

interface Entry {
  readonly sandbox: Omit<Sandbox, 'lastUsedAt'>;
  readonly plans: ReadonlyMap<string, Plan>;
  lastUsedAt: number;
}

/**
 * Sandboxes as `settings` bound them.
 *
 * @example
 * const sandboxes = createSandboxes({ config, clock: () => manualClock(), max: 1_000, idleMs: 30 * 60_000, now: Date.now });
 * const handle = sandboxes.route(main.handle); // a sandbox's key reaches its world
 */
export function createSandboxes({
  config,
  clock,
  max,
  idleMs,
  now,
  journalSize,
  journalBudget,
  petBudget,
  onRecord,
  worlds = 'here',
}: SandboxSettings): Sandboxes {
  // Least recently used first: a use moves an entry to the end, so the idle ones are always at the front.
  const entries = new Map<string, Entry>();
  /** Each open sandbox's id by its selector. */
  const bySelector = new Map<string, string>();
  const seen = (entry: Entry): Sandbox => ({ ...entry.sandbox, lastUsedAt: entry.lastUsedAt });

  const forget = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return false;
    entries.delete(id);
    bySelector.delete(entry.sandbox.selector);
    entry.sandbox.controls.reset();
    return true;
  };
  // One timer at a time, for the front entry: when it fires, the front may have been used since,
  // so it sweeps what has expired and is set again for the new front.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sweep = () => {
    const oldest = now() - idleMs;
    for (const [id, entry] of entries) {
      if (entry.lastUsedAt > oldest) break;
      forget(id);
    }
    if (timer === undefined) schedule();
  };
  function schedule() {
    const front = entries.values().next().value;
    if (!front) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        sweep();
      },
      Math.max(0, front.lastUsedAt + idleMs - now()),
    );
    // Node, Deno and Bun let a process end with it pending; a browser's or a Durable Object's timer is a number, with nothing to let go.
    (timer as { unref?: () => void }).unref?.();
  }
  const use = (id: string | undefined, key?: string) => {
    sweep();
    const entry = id === undefined ? undefined : entries.get(id);
    // A wrong secret for a real id is no use of it: the check comes before the mark.
    if (!entry || (key !== undefined && !entry.plans.has(key))) return undefined;
    entries.delete(id!);
    entry.lastUsedAt = now();
    entries.set(id!, entry);
    return entry;
  };

  return {
    max,
    worlds,
    get size() {
      sweep();
      return entries.size;
    },
    open(given) {
      sweep();
      if (given) forget(given.id);
      if (entries.size >= max) return undefined;
      let id = given?.id ?? newSandboxId();
      while (!given && entries.has(id)) id = newSandboxId();
      const keys = given?.keys ?? newSandboxKeys(id);
      let selector = given?.selector ?? newSandboxSelector();
      while (bySelector.has(selector)) selector = newSandboxSelector();
      const plans = new Map<string, Plan>(SANDBOX_PLANS.map((plan) => [keys[plan], plan]));
      const controls = createControls({
        // The main world's keys too, on their plans: a request with the selector may carry one,
        // and only such a request reaches the sandbox with it. Counted here, never in the main world.
        config: { ...config, apiKeys: new Map([...config.apiKeys, ...plans]) },
        clock: clock(),
        ...(journalSize && { journalSize }),
        ...(journalBudget && { journalBudget }),
        ...(petBudget && { petBudget }),
        onRecord: onRecord && ((exchange: RecordedExchange) => onRecord(id, exchange)),
      });
      const entry: Entry = { sandbox: { id, keys, selector, controls, createdAt: now() }, plans, lastUsedAt: now() };
      entries.set(id, entry);
      bySelector.set(selector, id);
      if (timer === undefined) schedule();
      return seen(entry);
    },
    get: (id) => {
      const entry = use(id);
      return entry && seen(entry);
    },
    byKey: (key) => {
      const entry = use(sandboxIdOf(key), key);
      return entry && seen(entry);
    },
    list() {
      sweep();
      return [...entries.values()].map(seen);
    },
    delete: forget,
    route: (handle) => (request, host, injected) => {
      const key = bearerToken(request.headers.get('authorization'));
      const id = sandboxIdOf(key);
      const selector = selectorOf(request.headers);
      if (selector !== undefined) {
        sweep();
        const chosen = bySelector.get(selector);
        const refusal = chosen === undefined ? NO_SUCH_SELECTOR : id !== undefined && id !== chosen ? CONFLICT : undefined;
        // Answered here, before any world: with the CORS headers the API would add, so a page reads it.
        const reply =
          refusal &&
          withHeaders(
            errorReply(refusal, () => {}),
            corsHeaders(request, config.cors),
          );
        if (reply) return Promise.resolve(render(reply, { head: request.method === 'HEAD', ResponseClass: host.ResponseClass }));
        return use(chosen)!.sandbox.controls.handle(request, host, injected);
      }
      // Every request sweeps, the main world's too: only the front of the map is looked at, so it is cheap.
      if (id === undefined) sweep();
      // A key shaped like a sandbox's but not one of them (a deleted sandbox's, a guessed secret) is the main world's 401.
      const entry = id === undefined ? undefined : use(id, key);
      return entry ? entry.sandbox.controls.handle(request, host, injected) : handle(request, host, injected);
    },
  };
}
