/** The fake backend's layers for the service worker: its main world over the worker's own stores, sandboxes in memory beside it, and no admin API (the page drives both by postMessage), which keeps the worker small. */
import type { LimitStore, PetStorage } from '../src/index.ts';
import { takeoverClock } from './clock/clock.ts';
import type { ControlLayers } from './layers.ts';
import { createWorlds, withStandingFaults, type ControlBounds } from './worlds.ts';

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
      const real = () => takeoverClock(config.now);
      const worlds = createWorlds({ config, clock: clock ?? real(), sandboxClock: real, realNow: config.now, standingFaults, bounds, kept });
      return { controls: worlds.main, sandboxes: worlds.sandboxes, handle: worlds.handle };
    },
    faulty: withStandingFaults,
  };
}
