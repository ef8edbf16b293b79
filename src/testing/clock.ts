/** A clock tests move by hand: it drives rate windows, bans, key expiry and the sunset date. */

/** A clock that only moves when told to. */
export interface ManualClock {
  /** The current time, epoch ms; pass it as the store's `now`. */
  now(): number;
  /** Moves the clock forward by `ms` and returns the new time. */
  advance(ms: number): number;
  /** Sets the clock to `time` (a Date, epoch ms or an ISO string) and returns it. */
  set(time: Date | number | string): number;
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
  const toMs = (time: Date | number | string): number => {
    const ms = typeof time === 'number' ? time : new Date(time).getTime();
    if (!Number.isFinite(ms)) throw new TypeError(`not a time: ${String(time)}`);
    return ms;
  };
  let current = toMs(start);
  return {
    now: () => current,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new TypeError('advance() takes a non-negative number of ms');
      return (current += ms);
    },
    set: (time) => (current = toMs(time)),
  };
}
