/** The cursor of a next-page link: what encodeCursor writes, decodeCursor reads back, and anything else it refuses. */
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './inputs.ts';

describe('decodeCursor', () => {
  it('reads back every id encodeCursor wrote, from 1 to 2^53-1', () => {
    for (const id of [1, 7, 20, 1_000_000, Number.MAX_SAFE_INTEGER]) expect(decodeCursor(encodeCursor(id))).toBe(id);
  });

  it('writes cursors as unpadded base64url that clients can put in a query unescaped', () => {
    expect(encodeCursor(7)).toBe('cDE6Nw');
    expect(encodeCursor(Number.MAX_SAFE_INTEGER)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['an empty string', ''],
    ['text that is not base64url', 'p1:7'],
    ['padded base64', 'cDE6Nw=='],
    ['standard base64 with + or /', 'cDE6Nw+/'],
    ['another version prefix', btoa('p2:7').replace(/=+$/, '')],
    ['id 0', btoa('p1:0').replace(/=+$/, '')],
    ['a leading zero', btoa('p1:07').replace(/=+$/, '')],
    ['an id past 2^53-1', btoa('p1:9007199254740993').replace(/=+$/, '')],
    ['a second spelling of a valid cursor (trailing bits set)', 'cDE6Nx'],
    ['a cursor longer than 32 characters', 'A'.repeat(33)],
  ])('refuses %s', (_, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined();
  });
});
