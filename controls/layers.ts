/** The fake backend's layers as the composition root puts them in front of the API, handed to it only by the products that can have them, so the others are built without them. */
import type { Handle, ResolvedOptions } from '../src/index.ts';
import { withAdmin } from './admin.ts';
import { takeoverClock, type ManualClock } from './clock.ts';
import { createControls, type Controls } from './controls.ts';
import { createFaults, refusalQuotaHeaders, withFaults, type FaultInjector, type FaultRule } from './faults.ts';

/**
 * What `compose` builds the fake backend from. It is passed in rather than imported by
 * compose/compose.ts, so a product without controls (the service worker) leaves the clock, the
 * faults, the journal and the admin API out of its bundle.
 *
 * @example
 * const { controls } = compose({ config, clock: manualClock(), layers: controlLayers });
 */
export interface ControlLayers {
  /** Controls over fresh memory stores on `clock` (else a clock taken over from `config.now`), behind the admin API when `config.admin` is on. */
  controlled(
    config: ResolvedOptions,
    clock: ManualClock | undefined,
    standingFaults: readonly FaultRule[],
  ): { readonly controls: Controls; readonly handle: Handle };
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
  controlled(config, clock, standingFaults) {
    const controls = createControls({ config, clock: clock ?? takeoverClock(config.now), standingFaults });
    return { controls, handle: config.admin ? withAdmin(controls, { ...config, admin: config.admin }) : controls.handle };
  },
  faulty(handle, config, standingFaults) {
    const faults = createFaults({ quotaHeaders: refusalQuotaHeaders(config.apiKeys, config.now) });
    for (const rule of standingFaults) faults.inject(rule);
    return { faults, handle: withFaults(handle, faults) };
  },
};
