/** The fake backend's layers with the admin API: the set the products with a fake backend over HTTP hand to the composition root. */
import type { Handle } from '../../src/index.ts';
import type { ControlLayers } from '../layers.ts';
import type { SandboxWorlds } from '../sandboxes/sandboxes.ts';
import { manualClock, takeoverClock } from '../clock/clock.ts';
import { createWorlds, DEFAULT_BOUNDS, withStandingFaults } from '../worlds.ts';
import { createExchangeFeed } from '../dashboard/exchange-feed.ts';
import { withAdmin } from './admin.ts';

/**
 * The {@link ControlLayers} with the admin API, its sandboxes' worlds where `sandboxWorlds` says:
 * `here` for {@link controlLayers}; `elsewhere` for the Workers fake backend's main object, whose
 * registry lists each sandbox while the sandbox's own Durable Object holds its world.
 *
 * @example
 * const composed = compose({ config, layers: adminLayers('elsewhere') });
 */
export const adminLayers = (sandboxWorlds: SandboxWorlds): ControlLayers => ({
  controlled(config, clock, standingFaults, bounds = config.admin ?? DEFAULT_BOUNDS) {
    // Streamed only with the admin API on; without it, nothing is told of an exchange.
    const feed = config.admin ? createExchangeFeed() : undefined;
    const worlds = createWorlds({
      config,
      clock: clock ?? takeoverClock(config.now),
      // A sandbox's clock is made as the main world's: by hand in the test kit (starting where the main one stands), else real until moved.
      sandboxClock: clock ? () => manualClock(clock.now()) : () => takeoverClock(config.now),
      // The test kit's config.now is its manual clock: idleness is real time there.
      realNow: clock ? Date.now : config.now,
      standingFaults,
      bounds,
      ...(feed && { onRecord: feed.publish }),
      sandboxWorlds,
    });
    const { main: controls, sandboxes } = worlds;
    // Notes on every request, telemetry or not: the path notes there the plan it counted the request against, for the journal.
    // Not { ...host, notes }: V8 gives that clone a hidden class of its own each time, so every read of the host missed its cache.
    const noted: Handle = (request, host, injected) => worlds.handle(request, host.notes ? host : Object.assign({}, host, { notes: {} }), injected);
    return { controls, sandboxes, handle: feed ? withAdmin({ ...worlds, handle: noted }, { ...config, admin: config.admin! }, feed) : noted };
  },
  faulty: withStandingFaults,
});

/**
 * The set of {@link ControlLayers} with the admin API for the products with a fake backend in one
 * process: `createPetStore` (its `admin` option), the test kit, the command.
 *
 * @example
 * const petstore = toPetStore(compose({ config, standingFaults, layers: controlLayers }), nodeListener);
 */
export const controlLayers: ControlLayers = adminLayers('here');
