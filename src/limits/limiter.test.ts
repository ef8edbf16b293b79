/** The quota headers on their own: which window binds, and how each is described. */
import { describe, expect, it } from 'vitest';
import { quotaHeaders, quotaWindows } from './limiter.ts';

const NOW = Date.parse('2026-11-22T10:00:15Z');
const policy = '"minute";q=60;w=60, "day";q=1000;w=86400';

describe('quotaWindows', () => {
  it('aligns the minute and the day to UTC, so every instance counts in the same windows', () => {
    const [minute, day] = quotaWindows(NOW, { perMinute: 60, perDay: 1000 });
    expect(minute).toEqual({ name: 'minute', limit: 60, start: Date.parse('2026-11-22T10:00:00Z'), end: Date.parse('2026-11-22T10:01:00Z') });
    expect(day).toEqual({ name: 'day', limit: 1000, start: Date.parse('2026-11-22T00:00:00Z'), end: Date.parse('2026-11-23T00:00:00Z') });
  });
});

describe('quotaHeaders', () => {
  const minute = { name: 'minute', limit: 60, reset: Date.parse('2026-11-22T10:01:00Z') };
  const day = { name: 'day', limit: 1000, reset: Date.parse('2026-11-23T00:00:00Z') };

  it('reports the window with the fewest requests left in X-RateLimit-*, and lists it first in RateLimit', () => {
    const headers = quotaHeaders(
      [
        { ...minute, remaining: 59 },
        { ...day, remaining: 12 },
      ],
      NOW,
      policy,
    );
    expect(headers).toEqual({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '12',
      'X-RateLimit-Reset': String(Date.parse('2026-11-23T00:00:00Z') / 1000),
      'RateLimit-Policy': policy,
      RateLimit: '"day";r=12;t=50385, "minute";r=59;t=45',
    });
  });

  it('reports the later reset when two windows have as much left, since waiting for the earlier would not help', () => {
    const headers = quotaHeaders(
      [
        { ...minute, remaining: 0 },
        { ...day, remaining: 0 },
      ],
      NOW,
      policy,
    );
    expect(headers['X-RateLimit-Limit']).toBe('1000');
    expect(headers.RateLimit).toBe('"day";r=0;t=50385, "minute";r=0;t=45');
  });

  it("reports the minute window in the day's last minute, when both have as much left and reset together", () => {
    const lastMinute = Date.parse('2026-11-22T23:59:15Z');
    const midnight = Date.parse('2026-11-23T00:00:00Z');
    const headers = quotaHeaders(
      [
        { ...minute, remaining: 0, reset: midnight },
        { ...day, remaining: 0 },
      ],
      lastMinute,
      policy,
    );
    expect(headers['X-RateLimit-Limit']).toBe('60');
    expect(headers.RateLimit).toBe('"minute";r=0;t=45, "day";r=0;t=45');
  });

  it('orders any number of windows fewest remaining first, and reports a lone window alone', () => {
    const hour = { name: 'hour', limit: 500, reset: Date.parse('2026-11-22T11:00:00Z') };
    const three = quotaHeaders(
      [
        { ...minute, remaining: 30 },
        { ...hour, remaining: 5 },
        { ...day, remaining: 12 },
      ],
      NOW,
      policy,
    );
    expect([three['X-RateLimit-Limit'], three.RateLimit]).toEqual(['500', '"hour";r=5;t=3585, "day";r=12;t=50385, "minute";r=30;t=45']);
    const one = quotaHeaders([{ ...day, remaining: 7 }], NOW, policy);
    expect([one['X-RateLimit-Remaining'], one.RateLimit]).toEqual(['7', '"day";r=7;t=50385']);
  });
});
