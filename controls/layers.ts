/** What a set of the fake backend's layers is: the shape the composition root builds a fake backend from, with or without the admin API. */
import type { Handle, ResolvedOptions } from '../src/index.ts';
import type { ManualClock } from './clock/clock.ts';
import type { Controls } from './controls.ts';
import type { FaultInjector, FaultRule } from './faults/faults.ts';
import type { Sandboxes } from './sandboxes/sandboxes.ts';
import type { ControlBounds } from './worlds.ts';

export type { ControlBounds } from './worlds.ts';

/**
 * What `compose` builds the fake backend from. It is passed in rather than imported by
 * compose/compose.ts, so a product leaves out of its bundle the layers it has no use for: the
 * admin API's set is admin/admin-layers.ts, the service worker's (without it) worker-layers.ts.
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
