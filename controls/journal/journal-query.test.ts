/** Journal queries: the filters a query string asks for, the exchanges and the count they name, and the 400 of a filter that cannot be. */
import { describe, expect, it } from 'vitest';
import { journalEntry } from '../../test/helpers/journal-entry.ts';
import { ApiError } from '../../src/index.ts';
import type { RecordedExchange } from './journal.ts';
import { countMatching, exchangesMatching, journalFilter } from './journal-query.ts';

/** An exchange with what a filter reads. */
const exchange = (method: string, path: string, status: number, time: string): RecordedExchange => journalEntry({ method, path, status, time });

const JOURNAL = [
  exchange('GET', '/v1/pets', 200, '2026-01-01T00:00:00.000Z'),
  exchange('POST', '/v1/pets', 201, '2026-01-01T00:01:00.000Z'),
  exchange('POST', '/v1/pets', 422, '2026-01-01T00:02:00.000Z'),
  exchange('GET', '/v1/pets/1', 200, '2026-01-01T00:03:00.000Z'),
  exchange('POST', '/v1/pets', 201, '2026-01-01T00:04:00.000Z'),
];

/** The times of the exchanges `query` names. */
const timesFor = (query: string) => exchangesMatching(JOURNAL, journalFilter(new URLSearchParams(query))).map((e) => e.time.slice(14, 16));

/** The 400 `query` is refused with. */
function refusal(query: string): ApiError {
  try {
    journalFilter(new URLSearchParams(query));
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`${query} was not refused`);
}

describe('exchangesMatching', () => {
  it('names every exchange without a filter, oldest first', () => {
    expect(timesFor('')).toEqual(['00', '01', '02', '03', '04']);
  });

  it('takes method in any case, path exactly, status as a number, and all of them at once', () => {
    expect(timesFor('method=post')).toEqual(['01', '02', '04']);
    expect(timesFor('path=/v1/pets')).toEqual(['00', '01', '02', '04']);
    expect(timesFor('path=/v1/pets/')).toEqual([]);
    expect(timesFor('status=200')).toEqual(['00', '03']);
    expect(timesFor('method=POST&path=%2Fv1%2Fpets&status=201')).toEqual(['01', '04']);
  });

  it('takes since as the store time, the exchange at that very time included, in any offset', () => {
    expect(timesFor('since=2026-01-01T00:02:00Z')).toEqual(['02', '03', '04']);
    expect(timesFor('since=2026-01-01T01:02:00%2B01:00')).toEqual(['02', '03', '04']);
    expect(timesFor('since=2026-01-01T00:02:00.001Z')).toEqual(['03', '04']);
  });

  it('keeps with limit the newest n matches, still oldest first', () => {
    expect(timesFor('limit=2')).toEqual(['03', '04']);
    expect(timesFor('method=post&limit=2')).toEqual(['02', '04']);
    expect(timesFor('limit=99')).toEqual(['00', '01', '02', '03', '04']);
  });
});

describe('countMatching', () => {
  it('counts what the same filters name', () => {
    expect(countMatching(JOURNAL, {})).toBe(5);
    expect(countMatching(JOURNAL, { method: 'get', status: 200 })).toBe(2);
    expect(countMatching(JOURNAL, { method: 'post', limit: 1 })).toBe(1);
    expect(countMatching([], { path: '/v1/pets' })).toBe(0);
  });
});

describe('journalFilter', () => {
  it('turns the texts into values: status and limit numbers, since epoch milliseconds', () => {
    expect(journalFilter(new URLSearchParams('method=get&path=/v1/pets&status=0&since=2026-01-01T00:00:00Z&limit=3'))).toEqual({
      method: 'get',
      path: '/v1/pets',
      status: 0,
      since: Date.parse('2026-01-01T00:00:00Z'),
      limit: 3,
    });
  });

  it('refuses with a 400 invalid_request naming each filter that is unknown, repeated or not what it must be', () => {
    const cases: [string, string, string][] = [
      ['status=abc', 'status', 'must be a status from 0 to 999, like 404 (0: a network fault)'],
      ['status=2000', 'status', 'must be a status from 0 to 999, like 404 (0: a network fault)'],
      ['since=yesterday', 'since', 'must be an ISO date-time like "2026-01-01T00:00:00Z"'],
      ['since=2026-02-30T00:00:00Z', 'since', 'must be an ISO date-time like "2026-01-01T00:00:00Z"'],
      ['limit=0', 'limit', 'must be a whole number from 1 to 999999999999999, without leading zeros'],
      ['limit=-1', 'limit', 'must be a whole number from 1 to 999999999999999, without leading zeros'],
      ['limit=1.5', 'limit', 'must be a whole number from 1 to 999999999999999, without leading zeros'],
      ['limit=1000000000000000', 'limit', 'must be a whole number from 1 to 999999999999999, without leading zeros'],
      ['limit=05', 'limit', 'must be a whole number from 1 to 999999999999999, without leading zeros'],
      ['method=GET%20%2Fv1', 'method', 'must be an HTTP method like "POST"'],
      ['path=v1/pets', 'path', 'must be a path like "/v1/pets"'],
      ['stauts=200', 'stauts', 'is not a filter: use method, path, status, since or limit'],
      ['status=200&status=201', 'status', 'must appear at most once'],
    ];
    for (const [query, field, message] of cases) {
      const error = refusal(query);
      expect([query, error.status, error.code, error.details]).toEqual([query, 400, 'invalid_request', [{ field, message }]]);
    }
  });
});
