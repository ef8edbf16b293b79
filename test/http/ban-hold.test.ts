/** Held bans on a real node:http server: a banned caller's 429 waits, at most maxHeldBans at once, and a paying caller never waits behind it. */
import { describe, expect, it } from 'vitest';
import { memoryLimitStore } from '../../src/index.ts';
import type { LimitStore } from '../../src/limits/limit-store.ts';
import { expectError, startServer, type TestServer } from '../helpers/server.ts';

const NOW = Date.parse('2026-11-22T10:00:15Z');
const PAYING_KEY = 'paying-key-0123456789';

/** A keyless GET from this machine's address: 60 a minute are counted (as 401s), the next is refused and, with banThreshold 0, banned. */
const keyless = (server: TestServer, signal?: AbortSignal) => fetch(`${server.url}/pets`, signal ? { signal } : {});

/** Spends the keyless caller's 60 requests of the minute, so its next request starts its ban. */
async function spendMinute(server: TestServer): Promise<void> {
  for (let i = 0; i < 60; i++) expect((await keyless(server)).status).toBe(401);
}

/** A memory limit store that counts its takes: a request has reached the limits step once its take is counted. */
function countingLimitStore(): LimitStore & { readonly takes: () => number } {
  const store = memoryLimitStore();
  let takes = 0;
  return Object.assign(Object.create(store) as LimitStore, {
    take: (...args: Parameters<LimitStore['take']>) => {
      takes++;
      return store.take(...args);
    },
    takes: () => takes,
  });
}

/** Resolves once `condition()` holds, checking after each turn of the event loop (no timer, no sleep). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** Whether `promise` is still pending once the answers that came after it are in. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  return (await Promise.race([promise, new Promise((resolve) => setImmediate(() => resolve(marker)))])) === marker;
}

describe('a banned caller with banHoldMs', () => {
  it('gets its 429 key_banned with Retry-After once the hold is over, the request that starts the ban too', async () => {
    const server = await startServer({ now: () => NOW, banThreshold: 0, banHoldMs: 20 });
    await spendMinute(server);
    for (const response of [await keyless(server), await keyless(server)]) {
      await expectError(response, 429, 'key_banned');
      expect(response.headers.get('retry-after')).toBe('900');
    }
  });

  it('waits while the paying caller gets its 200 at once, and past maxHeldBans waiting the next ban is answered at once', async () => {
    const limitStore = countingLimitStore();
    const server = await startServer({ now: () => NOW, apiKeys: { [PAYING_KEY]: 'pro' }, banThreshold: 0, banHoldMs: 60_000, maxHeldBans: 2, limitStore });
    await spendMinute(server);
    const abort = new AbortController();
    const held = [keyless(server, abort.signal), keyless(server, abort.signal)];
    held.forEach((response) => response.catch(() => {}));
    // Sent once the two reached the limits step, so they are the two held: each answered first proves they wait.
    await until(() => limitStore.takes() === 62);
    const third = await keyless(server);
    await expectError(third, 429, 'key_banned');
    expect(third.headers.get('retry-after')).toBe('900');
    const paying = await fetch(`${server.url}/pets`, { headers: { authorization: `Bearer ${PAYING_KEY}` } });
    expect(paying.status).toBe(200);
    expect(await Promise.all(held.map(pending))).toEqual([true, true]);
    // A close waits for a held answer at most banHoldMs (docs/limits.md); the test does not wait a minute.
    abort.abort();
  });
});
