/** A fake backend's worlds: the main one and the sandboxes beside it, each request sent to the world its key names; and faults standing in front of a plain API. */
import { ADMIN_BOUNDS, type Handle, type LimitStore, type PetStorage, type ResolvedAdmin, type ResolvedOptions } from '../src/index.ts';
import type { ManualClock } from './clock/clock.ts';
import { createControls, type Controls } from './controls.ts';
import { refusalQuotaHeaders } from './faults/fault-answers.ts';
import { createFaults, withFaults, type FaultInjector, type FaultRule } from './faults/faults.ts';
import type { RecordedExchange } from './journal/journal.ts';
import { journalBudget } from './journal/journal-memory.ts';
import { createPetBudget } from './pets/pet-budget.ts';
import { createSandboxes, type SandboxWorlds, type Sandboxes } from './sandboxes/sandboxes.ts';

/**
 * How much a fake backend keeps: the most sandboxes, how long an unused one lives, each journal's
 * length and the bytes of all journals together.
 *
 * @example
 * const bounds: ControlBounds = { sandboxes: 50, sandboxIdleMinutes: 10, journal: 1_000, journalMiB: 16 };
 */
export type ControlBounds = Omit<ResolvedAdmin, 'token'>;

/** The bounds no one set: the admin option's defaults. */
export const DEFAULT_BOUNDS: ControlBounds = {
  sandboxes: ADMIN_BOUNDS.sandboxes.default,
  sandboxIdleMinutes: ADMIN_BOUNDS.sandboxIdleMinutes.default,
  journal: ADMIN_BOUNDS.journal.default,
  journalMiB: ADMIN_BOUNDS.journalMiB.default,
  pets: ADMIN_BOUNDS.pets.default,
};

/** A fake backend's worlds: the main one, the sandboxes beside it, and the handle that sends each request to its world. */
export interface Worlds {
  readonly main: Controls;
  readonly sandboxes: Sandboxes;
  /** Every API request, sent to the world its key belongs to. */
  readonly handle: Handle;
}

/** What worlds are made of. */
interface WorldSettings {
  readonly config: ResolvedOptions;
  /** The main world's clock. */
  readonly clock: ManualClock;
  /** A new sandbox's clock. */
  readonly sandboxClock: () => ManualClock;
  /** Real time, which a sandbox's idleness is measured on. */
  readonly realNow: () => number;
  readonly standingFaults: readonly FaultRule[];
  readonly bounds: ControlBounds;
  /** The main world's stores kept across resets (the service worker's IndexedDB), else fresh memory ones. */
  readonly kept?: { readonly storage?: PetStorage; readonly limitStore?: LimitStore };
  /** Told each exchange any world journals: the sandbox's id, `null` for the main world's (the admin API's live feed). */
  readonly onRecord?: (sandbox: string | null, exchange: RecordedExchange) => void;
  /** Where the sandboxes' worlds live: here (default), or each in an instance of its own (Workers). */
  readonly sandboxWorlds?: SandboxWorlds;
}

/**
 * The main world on `clock` and sandboxes beside it, bounded by `bounds`.
 *
 * @example
 * const { main, sandboxes, handle } = createWorlds({ config, clock, sandboxClock: () => manualClock(), realNow: Date.now, standingFaults: [], bounds: DEFAULT_BOUNDS });
 */
export function createWorlds({ config, clock, sandboxClock, realNow, standingFaults, bounds, kept, onRecord, sandboxWorlds }: WorldSettings): Worlds {
  const journalSize = bounds.journal;
  // One budget for every world's journal: a flood in any of them evicts the oldest exchanges anywhere.
  const budget = journalBudget(bounds.journalMiB * 1024 * 1024);
  // One count for every world's pets: the main world's and each sandbox's, given back when one is reset or deleted.
  const petBudget = createPetBudget(bounds.pets);
  const main = createControls({
    config,
    clock,
    standingFaults,
    journalSize,
    journalBudget: budget,
    petBudget,
    ...(kept && { kept }),
    onRecord: onRecord && ((exchange: RecordedExchange) => onRecord(null, exchange)),
  });
  const sandboxes = createSandboxes({
    config,
    clock: sandboxClock,
    max: bounds.sandboxes,
    idleMs: bounds.sandboxIdleMinutes * 60_000,
    now: realNow,
    journalSize,
    journalBudget: budget,
    petBudget,
    onRecord,
    ...(sandboxWorlds && { worlds: sandboxWorlds }),
  });
  return { main, sandboxes, handle: sandboxes.route(main.handle) };
}

/**
 * `handle` behind faults that stand from the start, with no controls: the command's `--delay` and
 * `--fail-rate` without `--admin-token`.
 *
 * @example
 * const { faults, handle: faulty } = withStandingFaults(handle, config, [{ delayMs: 300, times: 'always' }]);
 */
export function withStandingFaults(
  handle: Handle,
  config: ResolvedOptions,
  standingFaults: readonly FaultRule[],
): { readonly faults: FaultInjector; readonly handle: Handle } {
  const faults = createFaults({ quotaHeaders: refusalQuotaHeaders(config.apiKeys, config.now) });
  for (const rule of standingFaults) faults.inject(rule);
  return { faults, handle: withFaults(handle, faults) };
}
