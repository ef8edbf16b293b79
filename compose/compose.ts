/** The one composition root: every product (createPetStore, the test kit, the command, the service worker) is built here, in one order. */
import type { ControlBounds, ControlLayers, Controls, FaultInjector, FaultRule, ManualClock, Sandboxes } from '../controls/without-admin.ts';
import { createAnswer, handleOf, type Answer, type Handle, type ResolvedOptions } from '../src/index.ts';
import { watchedAnswer, withBoundary, type Observer } from './boundary.ts';
import type { NodeFront } from './pet-store.ts';

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
  /** Answers some node:http requests in front of everything, the boundary and its hooks included: the command's `/metrics`. */
  readonly front?: NodeFront;
  /** The fake backend's layers, from the products that can have one: needed for `clock`, `config.admin` and `standingFaults`. */
  readonly layers?: ControlLayers;
  /** How much the fake backend keeps (sandboxes, their idle time, the journal), when `config.admin` does not say. */
  readonly bounds?: ControlBounds;
}

/** A product's parts: the handler in both its forms, and its controls if it has them. */
export interface Composed {
  readonly config: ResolvedOptions;
  /** Every request, as a Response: the boundary, the hooks, the admin API, the journal, the faults, the API. */
  readonly handle: Handle;
  /** The same answers as replies, when no layer needs a Response (no hooks, admin API, controls or faults): the direct node:http path. */
  readonly answer: Answer | undefined;
  readonly controls: Controls | undefined;
  /** The sandboxes beside the controls' world. */
  readonly sandboxes: Sandboxes | undefined;
  /** The faults in front of the API, when any can be injected. */
  readonly faults: FaultInjector | undefined;
  /** What answers on node:http before the handler does, if anything. */
  readonly front: NodeFront | undefined;
}

/**
 * Builds a product, outermost first: on node:http, the `front` (the command's `/metrics`); the
 * JSON error boundary with the hooks (onRequest, onResponse, the access log); the admin API under
 * `/__admin`; the journal; the faults; the API. The journal records what the client got, injected
 * faults included. toPetStore (compose/pet-store.ts) makes the product one callable store, with
 * any members of its own (the test kit's controls).
 *
 * @example
 * const { handle } = compose({ config: resolveOptions({ apiKeys: { k: 'free' } }) });
 */
export function compose({ config: options, clock, standingFaults = [], observe, front, layers, bounds }: Composition): Composed {
  // Telemetry sees the storages first: a call to PostgreSQL or Redis becomes a child span of its request.
  const telemetry = options.telemetry?.forStore({ storage: options.storage, limitStore: options.limitStore });
  // A copy only when a storage was wrapped: the options object the path reads stays the one resolveOptions made.
  const wrapped = telemetry && (telemetry.storage !== options.storage || telemetry.limitStore !== options.limitStore);
  const config = wrapped ? { ...options, storage: telemetry.storage, limitStore: telemetry.limitStore } : options;
  const controlled = clock !== undefined || config.admin !== undefined;
  if ((controlled || standingFaults.length > 0) && !layers) throw new TypeError('compose: a clock, the admin API or standing faults need the control layers');
  const api = controlled ? undefined : createAnswer(config);
  let inner: Handle;
  let controls: Controls | undefined;
  let sandboxes: Sandboxes | undefined;
  let faults: FaultInjector | undefined;
  if (controlled) {
    ({ controls, sandboxes, handle: inner } = layers!.controlled(config, clock, standingFaults, bounds));
    faults = controls.faults;
  } else if (standingFaults.length > 0) {
    ({ faults, handle: inner } = layers!.faulty(handleOf(api!), config, standingFaults));
  } else {
    inner = handleOf(api!);
  }
  const plain = api && !faults && !config.onRequest && !config.onResponse;
  return {
    config,
    handle: withBoundary(inner, config, observe, telemetry),
    answer: plain ? watchedAnswer(api, config, observe, telemetry) : undefined,
    controls,
    sandboxes,
    faults,
    front,
  };
}
