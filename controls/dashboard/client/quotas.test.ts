/** The quotas the dashboard shows: the newest answer's X-RateLimit-* headers per world and plan. */
import { describe, expect, it } from 'vitest';
import { type Exchange, loadedRows } from './journal-rows.ts';
import { quotasSeen } from './quotas.ts';

/** An exchange at `second` by `plan` whose answer said `remaining` (no quota headers when undefined). */
function answered(second: number, plan: Exchange['plan'], remaining: number | undefined): Exchange {
  const quota: Record<string, string> =
    remaining === undefined
      ? {}
      : { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': '1767225660', 'ratelimit-policy': '"minute";q=60;w=60' };
  return {
    method: 'GET',
    path: '/v1/pets',
    query: '',
    url: 'http://x/v1/pets',
    requestHeaders: {},
    requestBody: '',
    status: 200,
    responseHeaders: quota,
    responseBody: '',
    ms: 1,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
    ...(plan !== undefined && { plan }),
  };
}

describe('quotasSeen', () => {
  it('shows one row per world and plan, from its newest answer with quota headers', () => {
    const rows = loadedRows(
      [
        { sandbox: null, exchanges: [answered(1, 'free', 59), answered(2, 'free', 58), answered(3, 'pro', 599), answered(4, 'free', undefined)] },
        { sandbox: 'k3j9x2m1qa0b', exchanges: [answered(5, 'free', 59)] },
      ],
      [],
    );
    expect(quotasSeen(rows).map(({ world, plan, remaining }) => `${world} ${plan} ${remaining}`)).toEqual([
      'k3j9x2m1qa0b free 59',
      'main pro 599',
      'main free 58',
    ]);
    expect(quotasSeen(rows)[0]).toEqual({
      world: 'k3j9x2m1qa0b',
      plan: 'free',
      limit: '60',
      remaining: '59',
      reset: '1767225660',
      policy: '"minute";q=60;w=60',
    });
  });

  it('shows nothing for a journal without quota headers', () => {
    expect(quotasSeen(loadedRows([{ sandbox: null, exchanges: [answered(1, undefined, undefined)] }], []))).toEqual([]);
  });
});
