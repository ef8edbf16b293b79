/** The Durable Object class holding one subject's rate limits: every call for a subject runs here, one at a time, so counts are exact. */
import { ban, NO_LIMITS, reject, take, type Step, type SubjectLimits } from './subject-limits.ts';
import type { QuotaWindow } from '../../src/index.ts';

/** One LimitStore step, as durableObjectLimitStore posts it. */
export type StepCall =
  | { readonly step: 'take'; readonly windows: readonly QuotaWindow[]; readonly now: number }
  | { readonly step: 'reject'; readonly window: QuotaWindow; readonly now: number }
  | { readonly step: 'ban'; readonly until: number; readonly now: number };

/** What the object stores: the limits, and when (in real time) they have all ended. */
interface Saved {
  readonly limits: SubjectLimits;
  readonly endsAtReal: number;
}

const KEY = 'limits';

/** The part of a Durable Object's state this class uses. */
interface DurableObjectStateLike {
  readonly storage: {
    get(key: string): Promise<unknown>;
    put(key: string, value: unknown): Promise<void>;
    deleteAll(): Promise<void>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

function stepOf(limits: SubjectLimits, call: StepCall): Step<unknown> {
  if (call.step === 'take') return take(limits, call.windows, call.now);
  if (call.step === 'reject') return reject(limits, call.window);
  return ban(limits, call.until);
}

/**
 * The Durable Object behind `durableObjectLimitStore`: one instance per rate-limit subject (a key's
 * hash, or an anonymous caller's address), named by it. Cloudflare runs one instance of a name in
 * the world and delivers its calls one at a time, and this one answers each from memory and saves
 * it before the answer leaves (the runtime's output gate holds the response until the write is
 * stored), so 100 concurrent requests on a key admit exactly its quota, across every Worker
 * instance and a restart. An alarm deletes the state once its windows and ban have ended.
 * Export it from your Worker and bind it as `PETSTORE_LIMITS` (docs/workers.md).
 *
 * @example
 * // worker.js
 * export { PetStoreLimits } from 'petstore-service/workers';
 */
export class PetStoreLimits {
  readonly #storage: DurableObjectStateLike['storage'];
  #limits: SubjectLimits = NO_LIMITS;
  #endsAtReal = 0;

  constructor(state: DurableObjectStateLike) {
    this.#storage = state.storage;
    void state.blockConcurrencyWhile(async () => {
      const saved = (await state.storage.get(KEY)) as Saved | undefined;
      if (saved) ({ limits: this.#limits, endsAtReal: this.#endsAtReal } = saved);
    });
  }

  /** Runs one step posted by durableObjectLimitStore and answers `{ answer }`. */
  async fetch(request: Request): Promise<Response> {
    const call = (await request.json()) as StepCall;
    const { answer, limits } = stepOf(this.#limits, call);
    if (limits !== this.#limits) {
      this.#limits = limits;
      // The API's clock may be a test's: the state ends as long after now as its windows end after the API's now.
      const endsAtReal = Date.now() + Math.max(0, limits.endsAt - call.now);
      const later = endsAtReal > this.#endsAtReal;
      if (later) this.#endsAtReal = endsAtReal;
      // Not awaited: the next call already reads the new state from memory, and the output gate
      // keeps this answer from leaving before the write is stored.
      void this.#storage.put(KEY, { limits, endsAtReal: this.#endsAtReal } satisfies Saved);
      if (later) void this.#storage.setAlarm(this.#endsAtReal);
    }
    return Response.json({ answer: answer ?? null });
  }

  /** Forgets the subject once everything it held has ended; an alarm that came early waits again. */
  async alarm(): Promise<void> {
    if (Date.now() < this.#endsAtReal) return this.#storage.setAlarm(this.#endsAtReal);
    this.#limits = NO_LIMITS;
    this.#endsAtReal = 0;
    await this.#storage.deleteAll();
  }
}
