/** Fault rules on their own: delays, rates and what an injected failure answers. */
import { describe, expect, it } from 'vitest';
import { createFaults } from './faults.ts';

describe('createFaults', () => {
  it('delays by real milliseconds, and a rate of 0 never hits', async () => {
    const faults = createFaults();
    faults.delayNext(1, 30);
    faults.inject({ status: 500, probability: 0, times: 'always' });
    const started = performance.now();
    const response = await faults.apply(new Request('http://x/'), async () => new Response('ok'));
    expect(await response.text()).toBe('ok');
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('answers an injected 503 with an Error body and Retry-After, and counts a rule down to nothing pending', async () => {
    const faults = createFaults();
    faults.failNext(1, { method: 'POST', retryAfterSeconds: 7 });
    expect(faults.pending).toBe(1);
    const handled = async () => new Response('handled');
    expect(await (await faults.apply(new Request('http://x/', { method: 'GET' }), handled)).text()).toBe('handled');
    const failed = await faults.apply(new Request('http://x/', { method: 'POST' }), handled);
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('7');
    expect(await failed.json()).toEqual({ code: 'service_unavailable', message: 'Injected fault: 503 service_unavailable.', status: 503 });
    expect(faults.pending).toBe(0);
  });
});
