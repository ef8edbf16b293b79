/** Sandboxes: whole fake worlds inside one server (pets, quotas, clock, faults, journal), each chosen by its own API keys. */
import { bearerToken, type Handle, type Plan, type ResolvedOptions } from '../src/index.ts';
import type { ManualClock } from './clock.ts';
import { createControls, type Controls } from './controls.ts';
import { newSandboxId, newSandboxKeys, SANDBOX_PLANS, sandboxIdOf, type SandboxKeys } from './sandbox-keys.ts';

/** One sandbox: its id, its keys and the controls over its world. */
export interface Sandbox {
  readonly id: string;
  readonly keys: SandboxKeys;
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
}

/**
 * The sandboxes of one server. Idle ones are deleted when the registry is next used, so it needs
 * no timer (none keeps a process alive, and every runtime has the same behaviour).
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
  open(given?: { readonly id: string; readonly keys: SandboxKeys }): Sandbox | undefined;
  /** The sandbox `id`, marked as used, or `undefined` (never opened, deleted or idle too long). */
  get(id: string): Sandbox | undefined;
  /** Every open sandbox, least recently used first. */
  list(): Sandbox[];
  /** Ends the sandbox's held requests with a 503 and forgets it; `false` if there was none. */
  delete(id: string): boolean;
  /** `handle` for the requests of no sandbox; each sandbox's own for a request carrying one of its keys. */
  route(handle: Handle): Handle;
  readonly max: number;
  readonly size: number;
}

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
export function createSandboxes({ config, clock, max, idleMs, now, journalSize }: SandboxSettings): Sandboxes {
  // Least recently used first: a use moves an entry to the end, so the idle ones are always at the front.
  const entries = new Map<string, Entry>();
  const seen = (entry: Entry): Sandbox => ({ ...entry.sandbox, lastUsedAt: entry.lastUsedAt });

  const forget = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return false;
    entries.delete(id);
    entry.sandbox.controls.reset();
    return true;
  };
  const sweep = () => {
    const oldest = now() - idleMs;
    for (const [id, entry] of entries) {
      if (entry.lastUsedAt > oldest) break;
      forget(id);
    }
  };
  const use = (id: string | undefined) => {
    sweep();
    const entry = id === undefined ? undefined : entries.get(id);
    if (!entry) return undefined;
    entries.delete(id!);
    entry.lastUsedAt = now();
    entries.set(id!, entry);
    return entry;
  };

  return {
    max,
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
      const plans = new Map<string, Plan>(SANDBOX_PLANS.map((plan) => [keys[plan], plan]));
      const controls = createControls({ config: { ...config, apiKeys: plans }, clock: clock(), ...(journalSize && { journalSize }) });
      const entry: Entry = { sandbox: { id, keys, controls, createdAt: now() }, plans, lastUsedAt: now() };
      entries.set(id, entry);
      return seen(entry);
    },
    get: (id) => {
      const entry = use(id);
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
      // A key shaped like a sandbox's but not one of them (a deleted sandbox's) is the main world's 401.
      const entry = id === undefined ? undefined : use(id);
      return entry?.plans.has(key!) ? entry.sandbox.controls.handle(request, host, injected) : handle(request, host, injected);
    },
  };
}
