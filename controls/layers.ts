/** The fake backend's layers as the composition root puts them in front of the API, handed to it only by the products that can have them, so the others are built without them. */
import type { Handle, ResolvedOptions } from '../src/index.ts';
import { withAdmin } from './admin.ts';
import { manualClock, takeoverClock, type ManualClock } from './clock.ts';
import type { Controls } from './controls.ts';
import type { FaultInjector, FaultRule } from './faults.ts';
import type { Sandboxes } from './sandboxes.ts';
import { createWorlds, DEFAULT_BOUNDS, withStandingFaults, type ControlBounds } from './worlds.ts';

/**
 * What `compose` builds the fake backend from. It is passed in rather than imported by
 * compose/compose.ts, so a product leaves out of its bundle the layers it has no use for: the
 * service worker has its own set (worker-layers.ts), without the admin API.
 *
 * @example
 * const { controls } = compose({ config, clock: manualClock(), layers: controlLayers });
 */
export type { ControlBounds } from './worlds.ts';

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
  controlled(config, clock, standingFaults, bounds = config.admin ?? DEFAULT_BOUNDS) {
    const worlds = createWorlds({
      config,
      clock: clock ?? takeoverClock(config.now),
      // A sandbox's clock is made as the main world's: by hand in the test kit (starting where the main one stands), else real until moved.
      sandboxClock: clock ? () => manualClock(clock.now()) : () => takeoverClock(config.now),
      // The test kit's config.now is its manual clock: idleness is real time there.
      realNow: clock ? Date.now : config.now,
      standingFaults,
      bounds,
    });
    const { main: controls, sandboxes } = worlds;
    return { controls, sandboxes, handle: config.admin ? withAdmin(worlds, { ...config, admin: config.admin }) : worlds.handle };
  },
  faulty: withStandingFaults,
};
