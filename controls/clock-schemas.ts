/** The clock's admin bodies as valibot schemas: a change (`POST /__admin/clock`) bounded to the Date range, and the time it answers. */
import * as v from 'valibot';
import { documented } from './documented-check.ts';

/** The Date range: a time further than this from 1970 (ms, either way) has no date, so no clock may go there. */
const MAX_TIME_MS = 8.64e15;

const CLOCK_CHANGE = 'must be {"advanceMs": <ms>} or {"set": "<ISO date>"}';
const ADVANCE = 'must be a number of milliseconds, 0 or more';
const SET = 'must be an ISO date-time like "2026-01-01T00:00:00Z"';
/** Where Date ends, either way: what a clock may show. */
const DATE_RANGE = `the Date range, ${new Date(-MAX_TIME_MS).toISOString()} to ${new Date(MAX_TIME_MS).toISOString()}`;

/**
 * An ISO 8601 date-time as Date reads it everywhere: seconds, an optional fraction, `Z` or an
 * offset; the year in four digits, or signed in six as toISOString writes years outside 0000-9999.
 * The clock's `set` and the journal's `since` take it.
 *
 * @example
 * ISO_DATE_TIME.test('2026-06-01T12:00:00Z'); // true
 */
export const ISO_DATE_TIME =
  /^(?:[0-9]{4}|[+-][0-9]{6})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$/;

/**
 * Whether the text's year, month and day (an {@link ISO_DATE_TIME}) name a day of the calendar (Date.parse reads 2026-02-30 as March 2).
 *
 * @example
 * dayExists('2026-02-30T00:00:00Z'); // false
 */
export function dayExists(time: string): boolean {
  const [, year, month, day] = /^([+-]?[0-9]+)-([0-9]{2})-([0-9]{2})/.exec(time)!.map(Number) as [number, number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** The fields of a clock change, each checked alone. */
const ClockChangeObject = v.strictObject(
  {
    advanceMs: v.optional(
      v.pipe(
        v.number(ADVANCE),
        v.minValue(0, ADVANCE),
        // The bound is static so the document can say it: no move is longer than the whole range, and a
        // move past its end stops there (timeAfterAdvance), so every value up to it is served.
        v.maxValue(2 * MAX_TIME_MS, `must be at most ${2 * MAX_TIME_MS} ms, the length of ${DATE_RANGE}`),
        v.description(
          `Move the clock forward this many milliseconds, at most the length of ${DATE_RANGE}; a move past the range\u2019s end stops the clock there.`,
        ),
      ),
    ),
    set: v.optional(
      v.pipe(
        v.string(SET),
        v.regex(ISO_DATE_TIME, SET),
        v.check((time) => !ISO_DATE_TIME.test(time) || dayExists(time), 'names a day the calendar does not have'),
        v.check((time) => !ISO_DATE_TIME.test(time) || !dayExists(time) || Number.isFinite(Date.parse(time)), `must be within ${DATE_RANGE}`),
        v.description(
          'Put the clock at this time: an ISO 8601 date-time with seconds and `Z` or an offset; a year outside 0000-9999 in six digits with a sign, ' +
            `as the clock itself is written (+010000-01-01T00:00:00.000Z). Within ${DATE_RANGE}.`,
        ),
      ),
    ),
  },
  (issue) => (issue.expected === 'never' ? `is not a field: the body ${CLOCK_CHANGE}` : CLOCK_CHANGE),
);
type ClockChange = v.InferOutput<typeof ClockChangeObject>;

/**
 * The body of `POST /__admin/clock`: exactly one of `advanceMs` and `set`. Where the clock is
 * never makes a valid body a refusal: {@link timeAfterAdvance} stops a long move at the range's end.
 *
 * @example
 * v.is(ClockChangeSchema, { set: '+010000-01-01T00:00:00.000Z' }); // true
 */
export const ClockChangeSchema = v.pipe(
  ClockChangeObject,
  documented(
    v.check<ClockChange, string>((change) => (change.advanceMs === undefined) !== (change.set === undefined), CLOCK_CHANGE),
    { oneOf: [{ required: ['advanceMs'] }, { required: ['set'] }] },
  ),
  v.title('ClockChange'),
);

/**
 * Where a clock at `now` (epoch ms) stands after moving `advanceMs` forward: that far, or the end of
 * the Date range if it comes first. A bound that depended on the clock could not be in the document,
 * which a client reads once, so a move past the end is served by stopping there rather than refused.
 * The time is computed once and set, so a clock still following real time cannot slip past the end.
 *
 * @example
 * controls.clock.set(timeAfterAdvance(controls.clock.now(), change.advanceMs));
 */
export function timeAfterAdvance(now: number, advanceMs: number): number {
  return Math.min(now + advanceMs, MAX_TIME_MS);
}

/**
 * How the admin API writes a time (Date's toISOString): a clock set past the year 9999 has a six-digit year.
 *
 * @example
 * v.pipe(v.string(), v.description(`When it was answered, ${ISO_OUTPUT}`));
 */
export const ISO_OUTPUT = 'in ISO 8601 as Date.prototype.toISOString writes it (2026-01-01T00:00:00.000Z; years past 9999 or before 0 as +275760 or -000001).';

/**
 * The answer of `GET` and `POST /__admin/clock`.
 *
 * @example
 * v.is(ClockTimeSchema, { now: '2026-06-01T12:00:00.000Z' }); // true
 */
export const ClockTimeSchema = v.pipe(v.strictObject({ now: v.pipe(v.string(), v.description(`The store\u2019s time, ${ISO_OUTPUT}`)) }), v.title('ClockTime'));
