/** The metrics of one openTelemetry(): request durations, refusals, held bans, bans in force and pets stored, on a meter found when first needed. */
import { createNoopMeter, metrics, type Attributes, type Counter, type Histogram, type MeterProvider, type ObservableResult } from '@opentelemetry/api';
import type { Answered, PetStorage } from '../src/index.ts';
import { ATTRIBUTE, DURATION_BUCKETS, METRIC } from './conventions.ts';
import { SCOPE, VERSION } from './scope.ts';

/** What every meter without a provider behind it hands out: the API's one no-op histogram. */
const NOOP_HISTOGRAM = createNoopMeter().createHistogram(METRIC.duration);

/** The refusal reasons' attributes, made once: a refused request records without allocating them. */
const REFUSED = {
  unauthorized: { [ATTRIBUTE.refusalReason]: 'unauthorized' },
  minute: { [ATTRIBUTE.refusalReason]: 'minute' },
  day: { [ATTRIBUTE.refusalReason]: 'day' },
  ban: { [ATTRIBUTE.refusalReason]: 'ban' },
} as const;

/** A banned caller's answer held `banHoldMs`, or sent at once because `maxHeldBans` were held: the attributes made once. */
const BAN_HOLDS = {
  held: { [ATTRIBUTE.banHoldOutcome]: 'held' },
  full: { [ATTRIBUTE.banHoldOutcome]: 'full' },
} as const;

/** A storage that can count its pets, held weakly: a store dropped by its application is not kept alive by its gauge. */
type Countable = Pick<Required<PetStorage>, 'count'>;

/** The instruments on one meter provider. */
interface Instruments {
  readonly duration: Histogram;
  readonly refusals: Counter;
  readonly banHolds: Counter;
}

/**
 * The metrics of one `openTelemetry()` value, shared by every store made with it: the duration
 * histogram and the refusals add up over them, the bans gauge counts the bans any of them
 * started, and the pets gauge sums their storages' counts (each storage once).
 *
 * The meter is asked for on the first request and again whenever the global provider has
 * changed: the metrics API has no proxy, so a meter taken before the application registered its
 * provider would stay a no-op.
 *
 * @example
 * const meters = new Meters(undefined); // the global provider
 * meters.watchPets(storage);
 * meters.record('GET', answer);
 */
export class Meters {
  readonly #explicit: MeterProvider | undefined;
  #provider: MeterProvider | undefined;
  #instruments: Instruments | undefined;
  /** End times (epoch ms, real time) of the bans this process started that may still be in force. */
  readonly #banEnds: number[] = [];
  readonly #storages: WeakRef<Countable>[] = [];
  readonly #watched = new WeakSet<Countable>();

  constructor(provider: MeterProvider | undefined) {
    this.#explicit = provider;
  }

  /**
   * The instruments to record on, made on the provider's meter when it is new; none when the
   * provider is a no-op, so an unmetered request builds no attributes.
   */
  instruments(): Instruments | undefined {
    const provider = this.#explicit ?? metrics.getMeterProvider();
    if (provider !== this.#provider) {
      this.#provider = provider;
      this.#instruments = this.#make(provider);
    }
    return this.#instruments;
  }

  /** Counts `storage`'s pets in the `petstore.pets` gauge, when it can count them. */
  watchPets(storage: PetStorage): void {
    if (typeof storage.count !== 'function' || this.#watched.has(storage as Countable)) return;
    this.#watched.add(storage as Countable);
    this.#storages.push(new WeakRef(storage as Countable));
  }

  /** Records one answer in the instruments; `method` as {@link methodOf} gave it. */
  record(instruments: Instruments, method: string, answer: Pick<Answered, 'status' | 'notes' | 'ms'>): void {
    const { status, notes } = answer;
    const attributes: Attributes = { [ATTRIBUTE.method]: method };
    if (notes.route !== undefined) attributes[ATTRIBUTE.route] = notes.route;
    // Status 0 is a reset connection: no status was sent, and 0 is not one.
    if (status !== 0) attributes[ATTRIBUTE.statusCode] = status;
    instruments.duration.record(answer.ms / 1000, attributes);
    const { limit } = notes;
    // The limits' refusal first: an anonymous caller over its quota gets the 429, not the 401.
    if (limit !== undefined && limit !== 'admitted') instruments.refusals.add(1, REFUSED[limit]);
    else if (status === 401) instruments.refusals.add(1, REFUSED.unauthorized);
    if (notes.banMs !== undefined) this.#banStarted(Date.now() + notes.banMs);
    if (notes.banHeldMs !== undefined) instruments.banHolds.add(1, notes.banHeldMs > 0 ? BAN_HOLDS.held : BAN_HOLDS.full);
  }

  #banStarted(end: number): void {
    this.#pruneBans(Date.now());
    this.#banEnds.push(end);
  }

  /** Forgets the bans that have ended: kept only while in force, the list stays as short as the bans are few. */
  #pruneBans(now: number): void {
    let kept = 0;
    for (const end of this.#banEnds) if (end > now) this.#banEnds[kept++] = end;
    this.#banEnds.length = kept;
  }

  #make(provider: MeterProvider): Instruments | undefined {
    const meter = provider.getMeter(SCOPE, VERSION);
    const duration = meter.createHistogram(METRIC.duration, {
      description: 'Duration of HTTP server requests.',
      unit: 's',
      // API 1.7 and later pass the advice on; before it, the SDK's default buckets apply.
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
    if (duration === NOOP_HISTOGRAM) return undefined;
    const refusals = meter.createCounter(METRIC.refusals, {
      description: 'Requests refused: without a valid key (unauthorized), over the minute or day quota, or while banned.',
      unit: '{request}',
    });
    const banHolds = meter.createCounter(METRIC.banHolds, {
      description: "Banned callers' answers held (held), or sent at once as maxHeldBans were (full).",
      unit: '{request}',
    });
    meter
      .createObservableGauge(METRIC.bans, { description: 'Bans in force that this process started.', unit: '{ban}' })
      .addCallback((result) => this.#observeBans(result));
    meter
      .createObservableGauge(METRIC.pets, { description: 'Pets stored, where the storage can count them cheaply.', unit: '{pet}' })
      .addCallback((result) => this.#observePets(result));
    return { duration, refusals, banHolds };
  }

  #observeBans(result: ObservableResult): void {
    this.#pruneBans(Date.now());
    result.observe(this.#banEnds.length);
  }

  /** The sum of every watched storage's count; nothing when none can count, or when one fails (a partial sum would mislead). */
  async #observePets(result: ObservableResult): Promise<void> {
    const storages: Countable[] = [];
    let kept = 0;
    for (const ref of this.#storages) {
      const storage = ref.deref();
      if (storage === undefined) continue;
      storages.push(storage);
      this.#storages[kept++] = ref;
    }
    this.#storages.length = kept;
    if (storages.length === 0) return;
    let counts: number[];
    try {
      counts = await Promise.all(storages.map((storage) => storage.count()));
    } catch {
      return;
    }
    result.observe(counts.reduce((sum, count) => sum + count, 0));
  }
}
