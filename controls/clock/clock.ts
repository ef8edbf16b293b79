/** The clocks tests and the admin API move by hand: they drive rate windows, bans, key expiry and the sunset date. */

/** A clock that only moves when told to. */
export interface ManualClock {
  /** The current time, epoch ms; pass it as the store's `now`. */
  now(): number;
  /** Moves the clock forward by `ms` and returns the new time. */
  advance(ms: number): number;
  /** Sets the clock to `time` (a Date, epoch ms or an ISO string) and returns it. */
  set(time: Date | number | string): number;
}

/** Epoch ms of `time`, or a TypeError saying what it was. */
function toMs(time: Date | number | string): number {
  const ms = typeof time === 'number' ? time : new Date(time).getTime();
  if (!Number.isFinite(ms)) throw new TypeError(`not a time: ${String(time)}`);
  return ms;
}

/** `ms` when it can move a clock forward, else a TypeError. */
function forward(ms: number): number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new TypeError('advance() takes a non-negative number of ms');
  return ms;
}

/**
 * A manual clock starting at `start` (default: the real time when it is created). Nothing ever
 * sleeps: a test that needs the next minute window calls `advance(60_000)`.
 *
 * @example
 * const clock = manualClock('2026-01-01T00:00:00Z');
 * clock.advance(61_000); // a new minute window
 */
export function manualClock(start: Date | number | string = Date.now()): ManualClock {
  let current = toMs(start);
  return {
    now: () => current,
    advance: (ms) => (current += forward(ms)),
    set: (time) => (current = toMs(time)),
  };
}

/**
 * A clock that follows `real` until it is first moved by hand, then stands where it was put: a
 * running server's clock, which the admin API can take over (`POST /__admin/clock`).
 */
export function takeoverClock(real: () => number): ManualClock {
  let current: number | undefined;
  return {
    now: () => current ?? real(),
    advance: (ms) => (current = (current ?? real()) + forward(ms)),
    set: (time) => (current = toMs(time)),
  };
}
