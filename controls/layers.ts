/** The fake backend's layers as the composition root puts them in front of the API, handed to it only by the products that can have them, so the others are built without them. */
import { ADMIN_BOUNDS, type Handle, type ResolvedAdmin, type ResolvedOptions } from '../src/index.ts';
import { withAdmin } from './admin.ts';
import { manualClock, takeoverClock, type ManualClock } from './clock.ts';
import { createControls, type Controls } from './controls.ts';
import { createSandboxes, type Sandboxes } from './sandboxes.ts';
import { createFaults, refusalQuotaHeaders, withFaults, type FaultInjector, type FaultRule } from './faults.ts';

/** How much a fake backend keeps: the most sandboxes, how long an unused one lives, the journal's length. */
export type ControlBounds = Omit<ResolvedAdmin, 'token'>;

/** The bounds without the admin API (the test kit's defaults). */
const ADMIN_DEFAULTS: ControlBounds = {
  sandboxes: ADMIN_BOUNDS.sandboxes.default,
  sandboxIdleMinutes: ADMIN_BOUNDS.sandboxIdleMinutes.default,
  journal: ADMIN_BOUNDS.journal.default,
};

/**
 * What `compose` builds the fake backend from. It is passed in rather than imported by
 * compose/compose.ts, so a product without controls (the service worker) leaves the clock, the
 * faults, the journal and the admin API out of its bundle.
 *
 * @example
 * const { controls } = compose({ config, clock: manualClock(), layers: controlLayers });
 */
export interface ControlLayers {
  /**
   * Controls over fresh memory stores on `clock` (else a clock taken over from `config.now`), with
   * sandboxes beside them, behind the admin API when `config.admin` is on.
   */
  controlled(
    config: ResolvedOptions,
    clock: ManualClock | undefined,
    standingFaults: readonly FaultRule[],
    bounds?: ControlBounds,
  ): { readonly controls: Controls; readonly sandboxes: Sandboxes; readonly handle: Handle };
  /** `handle` behind faults that stand from the start, with no controls: the command's `--delay` and `--fail-rate` without `--admin-token`. */
  faulty(handle: Handle, config: ResolvedOptions, standingFaults: readonly FaultRule[]): { readonly faults: FaultInjector; readonly handle: Handle };
}

/**
 * The one set of {@link ControlLayers}, for the products with a fake backend: `createPetStore`
 * (its `admin` option), the test kit, the command.
 *
 * @example
 * const petstore = toPetStore(compose({ config, standingFaults, layers: controlLayers }), nodeListener);
 */
export const controlLayers: ControlLayers = {
  controlled(config, clock, standingFaults, bounds = config.admin ?? ADMIN_DEFAULTS) {
    const journalSize = bounds.journal;
    const controls = createControls({ config, clock: clock ?? takeoverClock(config.now), standingFaults, journalSize });
    const sandboxes = createSandboxes({
      config,
      // A sandbox's clock is made as the main world's: by hand in the test kit (starting where the main one stands), else real until moved.
      clock: clock ? () => manualClock(clock.now()) : () => takeoverClock(config.now),
      max: bounds.sandboxes,
      idleMs: bounds.sandboxIdleMinutes * 60_000,
      // The test kit's config.now is its manual clock: idleness is real time there.
      now: clock ? Date.now : config.now,
      journalSize,
    });
    const worlds = { main: controls, sandboxes, handle: sandboxes.route(controls.handle) };
    return { controls, sandboxes, handle: config.admin ? withAdmin(worlds, { ...config, admin: config.admin }) : worlds.handle };
  },
  faulty(handle, config, standingFaults) {
    const faults = createFaults({ quotaHeaders: refusalQuotaHeaders(config.apiKeys, config.now) });
    for (const rule of standingFaults) faults.inject(rule);
    return { faults, handle: withFaults(handle, faults) };
  },
};
