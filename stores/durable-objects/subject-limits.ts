/** One subject's rate-limit state as plain data, and the LimitStore's three steps on it: what each Durable Object holds and changes. */
import type { QuotaWindow, TakeResult } from '../../src/index.ts';

/**
 * Everything a subject's limits remember, structured-clonable so Durable Object storage keeps it
 * as it is. `endsAt` is when all of it has ended, by the API's clock.
 */
export interface SubjectLimits {
  /** Per window name: the start of the window counted in, and how many were counted. */
  readonly windows: Readonly<Record<string, readonly [start: number, used: number]>>;
  readonly refusedIn: number;
  readonly refused: number;
  readonly bannedUntil: number;
  readonly endsAt: number;
}

/** A subject nothing is known of. */
export const NO_LIMITS: SubjectLimits = { windows: {}, refusedIn: 0, refused: 0, bannedUntil: 0, endsAt: 0 };

/** What a step answers, and the state to keep after it (the same object when nothing changed). */
export interface Step<T> {
  readonly answer: T;
  readonly limits: SubjectLimits;
}

const usedIn = (limits: SubjectLimits, windows: readonly QuotaWindow[]) =>
  windows.map((w) => {
    const held = limits.windows[w.name];
    return held !== undefined && held[0] === w.start ? held[1] : 0;
  });

/** LimitStore.take on one subject: unless banned, count one in every window if each has room. */
export function take(limits: SubjectLimits, windows: readonly QuotaWindow[], now: number): Step<TakeResult> {
  const current = usedIn(limits, windows);
  if (limits.bannedUntil > now) return { answer: { admitted: false, used: current, bannedUntil: limits.bannedUntil }, limits };
  if (current.some((used, i) => used >= windows[i]!.limit)) return { answer: { admitted: false, used: current }, limits };
  const used = current.map((count) => count + 1);
  const counted = Object.fromEntries(windows.map((w, i) => [w.name, [w.start, used[i]!] as const]));
  const endsAt = Math.max(limits.endsAt, ...windows.map((w) => w.end));
  return { answer: { admitted: true, used }, limits: { ...limits, windows: { ...limits.windows, ...counted }, endsAt } };
}

/** LimitStore.reject on one subject: one more refusal in `window`. */
export function reject(limits: SubjectLimits, window: QuotaWindow): Step<number> {
  const refused = limits.refusedIn === window.start ? limits.refused + 1 : 1;
  return { answer: refused, limits: { ...limits, refusedIn: window.start, refused, endsAt: Math.max(limits.endsAt, window.end) } };
}

/** LimitStore.ban on one subject: banned until `until`, never cut short. */
export function ban(limits: SubjectLimits, until: number): Step<undefined> {
  const bannedUntil = Math.max(limits.bannedUntil, until);
  return { answer: undefined, limits: { ...limits, bannedUntil, endsAt: Math.max(limits.endsAt, bannedUntil) } };
}
