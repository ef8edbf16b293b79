/** The one composition root: every product (createPetStore, the test kit, the command, the service worker) is built here, in one order. */
import { createFaults, refusalQuotaHeaders, withFaults, type FaultInjector, type FaultRule } from '../controls/faults.ts';
import { withAdmin } from '../controls/admin.ts';
import { takeoverClock, type ManualClock } from '../controls/clock.ts';
import { createControls, type Controls } from '../controls/controls.ts';
import { createAnswer, handleOf, resolveOptions, type Answer, type Handle, type PetStoreOptions, type ResolvedOptions } from '../src/index.ts';
import { observedAnswer, withBoundary, type Observer } from './boundary.ts';
import type { PetStore } from './handler.ts';
import { toPetStore } from './pet-store.ts';

/** What a product is made of. Everything but `config` is optional; each part is a layer below. */
export interface Composition {
  /** The store's options, checked. */
  readonly config: ResolvedOptions;
  /**
   * The clock of a fake backend: with it (or with `config.admin`), the API runs on controls over
   * fresh memory stores, recording a journal and taking faults; `config.now` is replaced by it.
   */
  readonly clock?: ManualClock;
  /** Faults from the start (and again after every reset): the command's `--delay` and `--fail-rate`. */
  readonly standingFaults?: readonly FaultRule[];
  /** Sees every answer without needing a Response: the command's access log. */
  readonly observe?: Observer;
}

/** A product's parts: the handler in both its forms, and its controls if it has them. */
export interface Composed {
  readonly config: ResolvedOptions;
  /** Every request, as a Response: the boundary, the hooks, the admin API, the journal, the faults, the API. */
  readonly handle: Handle;
  /** The same answers as replies, when no layer needs a Response (no hooks, admin API, controls or faults): the direct node:http path. */
  readonly answer: Answer | undefined;
  readonly controls: Controls | undefined;
  /** The faults in front of the API, when any can be injected. */
  readonly faults: FaultInjector | undefined;
}

/**
 * Builds a product, outermost first: the JSON error boundary with the hooks (onRequest,
 * onResponse, the access log); the admin API under `/__admin`; the journal; the faults; the API.
 * The journal records what the client got, injected faults included.
 *
 * @example
 * const { handle } = compose({ config: resolveOptions({ apiKeys: { k: 'free' } }) });
 */
export function compose({ config, clock, standingFaults = [], observe }: Composition): Composed {
  const controls = clock || config.admin ? createControls({ config, clock: clock ?? takeoverClock(config.now), standingFaults }) : undefined;
  const api = controls ? undefined : createAnswer(config);
  let inner: Handle;
  let faults: FaultInjector | undefined;
  if (controls) {
    faults = controls.faults;
    inner = config.admin ? withAdmin(controls, { ...config, admin: config.admin }) : controls.handle;
  } else if (standingFaults.length > 0) {
    faults = createFaults({ quotaHeaders: refusalQuotaHeaders(config.apiKeys, config.now) });
    for (const rule of standingFaults) faults.inject(rule);
    inner = withFaults(handleOf(api!), faults);
  } else {
    inner = handleOf(api!);
  }
  const plain = api && !faults && !config.onRequest && !config.onResponse;
  return {
    config,
    handle: withBoundary(inner, config, observe),
    answer: plain ? observedAnswer(api, config, observe) : undefined,
    controls,
    faults,
  };
}

/**
 * Creates the Pet Store API as one handler. Options are checked now: a bad one throws a `TypeError`.
 *
 * @example
 * import { createServer } from 'node:http';
 * const petstore = createPetStore({ apiKeys: { 'my-key': 'free' } });
 * createServer(petstore).listen(8080); // GET http://localhost:8080/v1/pets
 */
export function createPetStore(options: PetStoreOptions = {}): PetStore {
  return toPetStore(compose({ config: resolveOptions(options) }));
}
