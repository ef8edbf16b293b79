/** readiness(), the answer of GET /readyz: 200 while every store's database answers, a 503 naming the ones that do not, within the timeout. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '../response/reply.ts';
import type { StoreDatabase } from './database.ts';
import { READY_REUSE_MS, READY_TIMEOUT_MS, type ReadinessCheck, cachedReadiness, readiness } from './readiness.ts';

const POSTGRESQL: StoreDatabase = { system: 'postgresql', name: 'PostgreSQL' };
const REDIS: StoreDatabase = { system: 'redis', name: 'Redis' };

/** What a store's ping does: answer, refuse, or never settle. */
type Ping = 'answers' | 'refuses' | 'hangs';
const pingOf = (ping: Ping) => () =>
  ping === 'answers' ? Promise.resolve() : ping === 'refuses' ? Promise.reject(new Error('ECONNREFUSED')) : new Promise<void>(() => {});

/** The pets and the rate limits, each in `database` and pinging as told. */
const stores = (pets: [StoreDatabase, Ping], limits: [StoreDatabase, Ping]): ReadinessCheck[] => [
  { keeps: 'pets', database: pets[0], ping: pingOf(pets[1]) },
  { keeps: 'rate limits', database: limits[0], ping: pingOf(limits[1]) },
];

/** The answer as the probe gets it: status, headers and the body as JSON. */
async function probe(checks: readonly ReadinessCheck[]) {
  const response = render(await readiness(checks));
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The 503 body naming what does not answer. */
const notReady = (message: string) => ({ code: 'service_unavailable', message, status: 503 });

afterEach(() => {
  vi.useRealTimers();
});

describe('readiness (GET /readyz)', () => {
  it('answers 200 {"status":"ok"} when no store has a database that can be down (memory)', async () => {
    const { status, headers, body } = await probe([{ keeps: 'pets' }, { keeps: 'rate limits' }]);
    expect([status, headers.get('content-type'), body]).toEqual([200, 'application/json', { status: 'ok' }]);
  });

  it("answers 200 when every store's database answers", async () => {
    const { status, body } = await probe(stores([POSTGRESQL, 'answers'], [REDIS, 'answers']));
    expect([status, body]).toEqual([200, { status: 'ok' }]);
  });

  it('answers 503 naming the one database that does not answer and what it keeps there, for no cache to keep', async () => {
    const { status, headers, body } = await probe(stores([POSTGRESQL, 'answers'], [REDIS, 'refuses']));
    expect([status, headers.get('content-type'), headers.get('cache-control')]).toEqual([503, 'application/json', 'no-store']);
    expect(body).toEqual(notReady('Not ready: Redis (rate limits) does not answer.'));
  });

  it('names a database that keeps both pets and rate limits once: Redis (pets, rate limits)', async () => {
    const { status, body } = await probe(stores([REDIS, 'refuses'], [REDIS, 'refuses']));
    expect([status, body]).toEqual([503, notReady('Not ready: Redis (pets, rate limits) does not answer.')]);
  });

  it('names both of two different databases that do not answer', async () => {
    const { status, body } = await probe(stores([POSTGRESQL, 'refuses'], [REDIS, 'refuses']));
    expect([status, body]).toEqual([503, notReady('Not ready: PostgreSQL (pets) and Redis (rate limits) do not answer.')]);
  });

  it('calls a store that names no database "The storage"', async () => {
    const { body } = await probe([{ keeps: 'pets', ping: pingOf('refuses') }, { keeps: 'rate limits' }]);
    expect(body).toEqual(notReady('Not ready: The storage (pets) does not answer.'));
  });

  it(`answers 503 once ${READY_TIMEOUT_MS} ms have passed when a database never answers, so the probe never waits longer`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answered = false;
    const answer = probe(stores([POSTGRESQL, 'answers'], [REDIS, 'hangs'])).finally(() => (answered = true));
    await vi.advanceTimersByTimeAsync(READY_TIMEOUT_MS - 1);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toBe(true);
    const { status, body } = await answer;
    expect([status, body]).toEqual([503, notReady('Not ready: Redis (rate limits) does not answer.')]);
  });

  it(`asks the stores at once: two databases that never answer cost the probe ${READY_TIMEOUT_MS} ms, not twice that`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answered = false;
    const answer = probe(stores([POSTGRESQL, 'hangs'], [REDIS, 'hangs'])).finally(() => (answered = true));
    await vi.advanceTimersByTimeAsync(READY_TIMEOUT_MS);
    expect(answered).toBe(true);
    expect((await answer).body).toEqual(notReady('Not ready: PostgreSQL (pets) and Redis (rate limits) do not answer.'));
  });

  it('asks the databases at every probe: 503 while one is down, 200 again once it answers', async () => {
    let up = true;
    const checks: ReadinessCheck[] = [{ keeps: 'pets', database: POSTGRESQL, ping: () => (up ? Promise.resolve() : Promise.reject(new Error('down'))) }];
    const statuses: number[] = [];
    for (const state of [true, false, true]) {
      up = state;
      statuses.push((await probe(checks)).status);
    }
    expect(statuses).toEqual([200, 503, 200]);
  });
});

describe('cachedReadiness: one check in flight, its answer reused for a second', () => {
  /** A ping that counts its calls and settles when the test says. */
  function heldPing() {
    const pending: (() => void)[] = [];
    const ping = vi.fn(() => new Promise<void>((resolve) => pending.push(resolve)));
    return { ping, answerAll: () => pending.splice(0).forEach((resolve) => resolve()) };
  }

  it('gives callers that come while a check runs that check, even after the clock passed a second meanwhile', async () => {
    let now = 0;
    const { ping, answerAll } = heldPing();
    const ready = cachedReadiness([{ keeps: 'pets', database: POSTGRESQL, ping }], () => now);
    const first = ready();
    now = READY_REUSE_MS * 5;
    const second = ready();
    expect(second).toBe(first);
    answerAll();
    expect((await first).status).toBe(200);
    expect(ping).toHaveBeenCalledTimes(1);
  });

  it('checks again once the answer is a second old, or when the clock was set back before it', async () => {
    let now = 10_000;
    const ping = vi.fn(() => Promise.resolve());
    const ready = cachedReadiness([{ keeps: 'pets', database: POSTGRESQL, ping }], () => now);
    await ready();
    now += READY_REUSE_MS - 1;
    await ready();
    expect(ping).toHaveBeenCalledTimes(1);
    now += 1;
    await ready();
    expect(ping).toHaveBeenCalledTimes(2);
    now -= 1;
    await ready();
    expect(ping).toHaveBeenCalledTimes(3);
  });
});
