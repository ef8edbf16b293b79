/** Fault rules: delays, rates, what an injected failure answers through the API, and the rules inject refuses. */
import type * as v from 'valibot';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { FaultRuleInJavaScriptSchema } from './fault-schemas.ts';
import { createHandle, NO_HOST, resolveOptions } from '../../src/index.ts';
import { createFaults, type FaultRule } from './faults.ts';
import { seededRandom } from '../pets/random.ts';

afterEach(() => vi.restoreAllMocks());

/** The delays `count` requests through `faults` wait, as the timers they set show them. */
async function delaysOf(faults: ReturnType<typeof createFaults>, count: number): Promise<number[]> {
  const timers = vi.spyOn(globalThis, 'setTimeout');
  for (let i = 0; i < count; i++) await faults.apply(new Request('http://x/v1/pets'), async () => new Response('ok'));
  const delays = timers.mock.calls.map(([, ms]) => ms as number);
  timers.mockRestore();
  return delays;
}

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

  it('has the API answer an injected 503 with its Error body, Retry-After and the headers of a real answer, and counts a rule down to nothing pending', async () => {
    const faults = createFaults();
    faults.failNext(1, { method: 'POST', retryAfterSeconds: 7 });
    expect(faults.pending).toBe(1);
    const handle = createHandle(resolveOptions({ apiKeys: { 'unit-key-0123456789': 'free' } }));
    const send = (method: string) => {
      const request = new Request('http://x/v1/pets', { method, headers: { authorization: 'Bearer unit-key-0123456789' } });
      return faults.apply(request, (injected) => handle(request, NO_HOST, injected));
    };
    expect((await send('GET')).status).toBe(200);
    const failed = await send('POST');
    expect([failed.status, failed.statusText]).toEqual([503, 'Service Unavailable']);
    expect(failed.headers.get('retry-after')).toBe('7');
    expect(failed.headers.get('x-ratelimit-remaining')).toBe('58');
    expect(await failed.json()).toEqual({ code: 'service_unavailable', message: 'Injected fault: 503 service_unavailable.', status: 503 });
    expect(faults.pending).toBe(0);
  });
});

describe('faults.remove', () => {
  it('takes away the rule of that id only, and says false for an id no rule that can still apply has', () => {
    const faults = createFaults();
    const first = faults.inject({ status: 503, times: 'always' });
    const second = faults.failNext(1);
    expect(faults.remove(first)).toBe(true);
    expect(faults.list().map((fault) => fault.id)).toEqual([second]);
    expect([faults.remove(first), faults.remove('fault-99')]).toEqual([false, false]);
  });
});

describe('a delay range', () => {
  it('waits a whole number of ms from min to max, both reached, drawn anew for each request', async () => {
    const faults = createFaults({ random: seededRandom(7) });
    faults.inject({ delayMs: { min: 1, max: 4 }, times: 'always' });
    const delays = await delaysOf(faults, 60);
    expect(delays).toHaveLength(60);
    expect([...new Set(delays)].sort()).toEqual([1, 2, 3, 4]);
  });

  it('waits the same delays every run from the same seed, others from another', async () => {
    const run = (seed: number) => {
      const faults = createFaults({ random: seededRandom(seed) });
      faults.delayNext(20, { min: 0, max: 3 });
      return delaysOf(faults, 20);
    };
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
  });

  it('adds up with fixed delays, and is listed as it was given', async () => {
    const faults = createFaults({ random: () => 0.5 });
    faults.inject({ delayMs: { min: 2, max: 4 } });
    faults.inject({ delayMs: 5 });
    expect(faults.list().map((fault) => fault.delayMs)).toEqual([{ min: 2, max: 4 }, 5]);
    expect(await delaysOf(faults, 1)).toEqual([8]);
  });
});

describe('faults.inject', () => {
  it('takes exactly the FaultRule type the schema it checks with describes', () => {
    expectTypeOf<Required<FaultRule>>().toEqualTypeOf<Readonly<Required<v.InferOutput<typeof FaultRuleInJavaScriptSchema>>>>();
  });

  it('refuses a rule that cannot work, or could break the instance, with a TypeError naming each problem, and keeps none of it', () => {
    const faults = createFaults();
    const refusal = (rule: unknown) => {
      try {
        faults.inject(rule as FaultRule);
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        return (error as TypeError).message;
      }
      throw new Error(`${JSON.stringify(rule)} was accepted`);
    };
    expect(refusal({ delayMs: 2 ** 31 })).toBe('faults.inject: delayMs must be a whole number of milliseconds from 0 to 2147483647');
    expect(refusal({ status: 429, retryAfterSeconds: 86_401 })).toBe('faults.inject: retryAfterSeconds must be a whole number of seconds from 1 to 86400');
    expect(refusal({ status: 503, method: 'GET /v1/pets' })).toBe('faults.inject: method must be an HTTP method like "POST"');
    expect(refusal({ status: 503, path: 7 })).toBe('faults.inject: path must be a string like "/v1/pets" or a RegExp');
    expect(refusal({ status: 503, times: 0, probability: 2 })).toBe(
      'faults.inject: times must be a positive integer or "always" (at most 9007199254740991); probability must be a number from 0 to 1',
    );
    expect(refusal({ code: 'gone' })).toBe(
      'faults.inject: status must be given with code or message; status, network or delayMs must be given: a fault with none of them does nothing',
    );
    expect(refusal(null)).toBe('faults.inject: must be an object');
    expect(refusal({ delayMs: { min: 400, max: 100 } })).toBe(
      'faults.inject: delayMs.max must be at least min: a range runs from min up to max, e.g. {"min": 100, "max": 400}',
    );
    expect(refusal({ delayMs: { min: 0, max: 0 } })).toBe('faults.inject: status, network or delayMs must be given: a fault with none of them does nothing');
    expect(refusal({ delayMs: { min: 1, max: 2 ** 31 } })).toBe('faults.inject: delayMs.max must be a whole number of milliseconds from 0 to 2147483647');
    // A range missing a field, or with one too many, fits neither form: the message shows both.
    expect(refusal({ delayMs: { min: 1 } })).toBe(
      'faults.inject: delayMs must be a whole number of milliseconds from 0 to 2147483647, or a range like {"min": 100, "max": 400}',
    );
    expect(refusal({ delayMs: '100-400' })).toBe(
      'faults.inject: delayMs must be a whole number of milliseconds from 0 to 2147483647, or a range like {"min": 100, "max": 400}',
    );
    expect(refusal({ status: 503, stauts: 500 })).toMatch(
      /^faults\.inject: unknown option "stauts" \(did you mean "status"\?\); the options are status, code, message, network, delayMs, times, probability, method, path, afterHandling, retryAfterSeconds$/,
    );
    expect(faults.pending).toBe(0);
  });

  it('takes a RegExp path and the longest delay and Retry-After, and lists each rule as it was given', () => {
    const faults = createFaults();
    const path = /^\/v1\/pets(\/\d+)?$/;
    const id = faults.inject({ status: 503, path, retryAfterSeconds: 86_400, times: 'always' });
    faults.delayNext(1, 2 ** 31 - 1, { method: 'patch' });
    expect(faults.list()).toEqual([
      { status: 503, path, retryAfterSeconds: 86_400, times: 'always', id, left: 'always' },
      { method: 'patch', delayMs: 2 ** 31 - 1, times: 1, id: expect.any(String), left: 1 },
    ]);
  });
});
