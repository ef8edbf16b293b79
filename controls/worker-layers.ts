/** The fake backend's layers for the service worker: its main world over the worker's own stores, sandboxes in memory beside it, and no admin API (the page drives both by postMessage), which keeps the worker small. */
import type { LimitStore, PetStorage } from '../src/index.ts';
import { takeoverClock } from './clock.ts';
import { createControls } from './controls.ts';
import { createFaults, refusalQuotaHeaders, withFaults } from './faults.ts';
import type { ControlBounds, ControlLayers } from './layers.ts';
import { createSandboxes } from './sandboxes.ts';

/**
 * {@link ControlLayers} whose main world keeps `kept` (the worker's pets in IndexedDB survive
 * reloads) and runs on `clock`; every sandbox gets fresh memory stores and a clock real until
 * moved. Not controls/layers.ts's set: that one brings the admin API, which a worker has no use for.
 *
 * @example
 * const { controls, sandboxes } = compose({ config, clock: takeoverClock(config.now), layers: workerLayers({ storage }), bounds });
 */
export function workerLayers(kept: { readonly storage: PetStorage; readonly limitStore?: LimitStore }): ControlLayers {
  return {
    controlled(config, clock, standingFaults, bounds?: ControlBounds) {
      if (!bounds) throw new TypeError('workerLayers: the worker passes its bounds');
      const controls = createControls({ config, clock: clock ?? takeoverClock(config.now), standingFaults, journalSize: bounds.journal, kept });
      const sandboxes = createSandboxes({
        config,
        clock: () => takeoverClock(config.now),
        max: bounds.sandboxes,
        idleMs: bounds.sandboxIdleMinutes * 60_000,
        now: config.now,
        journalSize: bounds.journal,
      });
      return { controls, sandboxes, handle: sandboxes.route(controls.handle) };
    },
    faulty(handle, config, standingFaults) {
      const faults = createFaults({ quotaHeaders: refusalQuotaHeaders(config.apiKeys, config.now) });
      for (const rule of standingFaults) faults.inject(rule);
      return { faults, handle: withFaults(handle, faults) };
    },
  };
}
