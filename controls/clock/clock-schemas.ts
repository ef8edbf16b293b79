/** The clock's admin bodies as valibot schemas: a change (`POST /__admin/clock`) bounded to the Date range, and the time it answers. */
import * as v from 'valibot';
import { documented } from '../documented-check.ts';

/** The Date range: a time further than this from 1970 (ms, either way) has no date, so no clock may go there. */
const MAX_TIME_MS = 8.64e15;

const CLOCK_CHANGE = 'must be {"advanceMs": <ms>} or {"set": "<ISO date>"}';
const ADVANCE = 'must be a number of milliseconds, 0 or more';
const SET = 'must be an ISO date-time like "2026-01-01T00:00:00Z"';
/** Where Date ends, either way: what a clock may show. */
const DATE_RANGE = `the Date range, ${new Date(-MAX_TIME_MS).toISOString()} to ${new Date(MAX_TIME_MS).toISOString()}`;

/** A year as toISOString writes it: four digits, or six with a sign (`-000000` is no year: ECMA-262 refuses it). */
const YEAR = String.raw`(?:[0-9]{4}|\+[0-9]{6}|-(?:[1-9][0-9]{5}|0[1-9][0-9]{4}|00[1-9][0-9]{3}|000[1-9][0-9]{2}|0000[1-9][0-9]|00000[1-9]))`;
/** Two digits that are a multiple of 4 but not 00, and two that are a multiple of 4, 00 included. */
const BY_FOUR = '(?:0[48]|[2468][048]|[13579][26])';
const CENTURY_BY_FOUR = '(?:[02468][048]|[13579][26])';
/** A leap year: divisible by 4 and not by 100, or by 400 (`-000000` again left out). */
const LEAP_YEAR = `(?:(?:[0-9]{2}|[+-][0-9]{4})${BY_FOUR}|(?:\\+[0-9]{2})?${CENTURY_BY_FOUR}00|-(?:[1-9][0-9]|0[1-9])${CENTURY_BY_FOUR}00|-00${BY_FOUR}00)`;
/** A month and a day it has; February's 29th only in {@link LEAP_YEAR}. */
const MONTH_DAY = '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))';
const TIME = 'T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';

/**
 * An ISO 8601 date-time as Date reads it everywhere: seconds, an optional fraction, `Z` or an
 * offset; the year in four digits, or signed in six as toISOString writes years outside 0000-9999;
 * only days the calendar has. The clock's `set` and the journal's `since` take every text it
 * matches, and the document says it as the pattern: a generator of the pattern meets no refusal.
 *
 * @example
 * ISO_DATE_TIME.test('2026-06-01T12:00:00Z'); // true
 */
export const ISO_DATE_TIME = new RegExp(`^(?:${YEAR}-${MONTH_DAY}|${LEAP_YEAR}-02-29)${TIME}$`);

/**
 * The epoch ms of an {@link ISO_DATE_TIME}, or the end of the Date range it lies beyond: the
 * pattern allows years to ±999999, which no Date holds, and a clock set there stops at the end,
 * as a move past it does ({@link timeAfterAdvance}).
 *
 * @example
 * timeOf('+397271-11-30T21:24:58Z'); // 8640000000000000
 */
export function timeOf(time: string): number {
  const parsed = Date.parse(time);
  if (Number.isFinite(parsed)) return parsed;
  // Within the pattern, Date.parse fails only past the range: the year's sign says which end.
  return time.startsWith('-') ? -MAX_TIME_MS : MAX_TIME_MS;
}

/** {@link ISO_DATE_TIME} with any day 01-31 in any month: what a text that only misses the calendar matches. */
const LOOSE_DATE_TIME = new RegExp(`^${YEAR}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])${TIME}$`);

/** The fields of a clock change, each checked alone. */
const ClockChangeObject = v.strictObject(
  {
    advanceMs: v.optional(
      v.pipe(
        v.number(ADVANCE),
        v.minValue(0, ADVANCE),
        // Static, so the document can say it, and below 2^53, so the first number past it is one a
        // JSON parser tells apart (a bound of 2^54 would take 2^54 + 1 as itself). A move past the
        // range's end stops there (timeAfterAdvance), so every value up to it is served.
        v.maxValue(MAX_TIME_MS, `must be at most ${MAX_TIME_MS} ms`),
        v.description(
          `Move the clock forward this many milliseconds, at most ${MAX_TIME_MS} (from 1970 to the end of ${DATE_RANGE}); a move past the range\u2019s end stops the clock there.`,
        ),
      ),
    ),
    set: v.optional(
      v.pipe(
        v.string(SET),
        v.regex(ISO_DATE_TIME, ({ input }) => (LOOSE_DATE_TIME.test(input) ? 'names a day the calendar does not have' : SET)),
        v.description(
          'Put the clock at this time: an ISO 8601 date-time with seconds and `Z` or an offset; a year outside 0000-9999 in six digits with a sign, ' +
            `as the clock itself is written (+010000-01-01T00:00:00.000Z). A time beyond ${DATE_RANGE}, stops the clock at that end.`,
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
