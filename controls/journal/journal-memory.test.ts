/** The journals' shared budget: every world within one count of bytes, the oldest exchange anywhere out first, a cleared or deleted world's bytes given back. */
import { describe, expect, it } from 'vitest';
import { IN_PROCESS, resolveOptions } from '../../src/index.ts';
import { checkAdmin } from '../../src/admin-options.ts';
import { manualClock } from '../clock/clock.ts';
import type { RecordedExchange } from './journal.ts';
import { createJournal, EXCHANGE_OVERHEAD_BYTES, exchangeBytes, journalBudget } from './journal-memory.ts';
import { createWorlds, DEFAULT_BOUNDS } from '../worlds.ts';

/** An exchange whose request body is `size` characters. */
const exchange = (path: string, size = 0): RecordedExchange => ({
  method: 'POST',
  path,
  query: '',
  url: `http://x${path}`,
  requestHeaders: { 'content-type': 'application/json' },
  requestBody: 'x'.repeat(size),
  status: 201,
  responseHeaders: {},
  responseBody: '',
  ms: 0,
  time: '2026-01-01T00:00:00.000Z',
});

const paths = (entries: readonly RecordedExchange[]) => entries.map((entry) => entry.path);

describe('exchangeBytes', () => {
  it('counts 2 bytes a UTF-16 unit of every string, header names included, and the fixed overhead', () => {
    const units =
      'POST'.length + '/a'.length + 0 + 'http://x/a'.length + 10 + 0 + '2026-01-01T00:00:00.000Z'.length + 'content-type'.length + 'application/json'.length;
    expect(exchangeBytes(exchange('/a', 10))).toBe(EXCHANGE_OVERHEAD_BYTES + 2 * units);
  });
});

describe('journalBudget', () => {
  it('refuses a budget that is not a whole number of bytes, 1 or more', () => {
    expect(() => journalBudget(0)).toThrow(new TypeError('journal budget must be a whole number of bytes, 1 or more, got 0'));
    expect(() => journalBudget(1.5)).toThrow(TypeError);
  });

  it('drops the oldest exchange of any world when the worlds together pass it, and a clear gives its bytes back', () => {
    const size = exchangeBytes(exchange('/main-1', 1000));
    const budget = journalBudget(4 * size);
    const main = createJournal(100, budget);
    const sandbox = createJournal(100, budget);
    main.record(exchange('/main-1', 1000));
    main.record(exchange('/main-2', 1000));
    sandbox.record(exchange('/sbox-1', 1000));
    sandbox.record(exchange('/sbox-2', 1000));
    expect(budget.bytes).toBe(4 * size);
    // The sandbox floods: the main world's exchanges were the oldest, so they go first.
    sandbox.record(exchange('/sbox-3', 1000));
    expect(paths(main.entries())).toEqual(['/main-2']);
    sandbox.record(exchange('/sbox-4', 1000));
    expect(paths(main.entries())).toEqual([]);
    expect(paths(sandbox.entries())).toEqual(['/sbox-1', '/sbox-2', '/sbox-3', '/sbox-4']);
    expect(budget.bytes).toBe(4 * size);
    sandbox.clear();
    expect(budget.bytes).toBe(0);
    main.record(exchange('/main-3', 1000));
    expect(paths(main.entries())).toEqual(['/main-3']);
    expect(budget.bytes).toBe(size);
  });

  it('drops a world past its count from the budget too, and keeps an exchange larger than the budget alone', () => {
    const budget = journalBudget(10_000);
    const journal = createJournal(2, budget);
    for (const path of ['/1', '/2', '/3']) journal.record(exchange(path));
    expect(paths(journal.entries())).toEqual(['/2', '/3']);
    expect(budget.bytes).toBe(2 * exchangeBytes(exchange('/2')));
    journal.record(exchange('/big', 20_000));
    expect(paths(journal.entries())).toEqual(['/big']);
    journal.record(exchange('/4'));
    expect(paths(journal.entries())).toEqual(['/4']);
    expect(budget.bytes).toBe(exchangeBytes(exchange('/4')));
  });
});

describe('the admin option journalMiB', () => {
  it('is 16 when not given, and a TypeError naming it and its range outside 1 to 1,024', () => {
    const token = 'unit-admin-token-0123456789';
    expect(checkAdmin({ admin: { token } }).journalMiB).toBe(16);
    expect(checkAdmin({ admin: { token, journalMiB: 1_024 } }).journalMiB).toBe(1_024);
    for (const journalMiB of [0, 1_025, 1.5, '16']) {
      expect(() => checkAdmin({ admin: { token, journalMiB } })).toThrow(new TypeError('admin.journalMiB must be a whole number from 1 to 1024'));
    }
  });
});

describe('the worlds’ journals', () => {
  const KEY = 'unit-key-0123456789';
  const worlds = () =>
    createWorlds({
      config: resolveOptions({ apiKeys: { [KEY]: { perMinute: 1_000_000, perDay: 1_000_000 } } }),
      clock: manualClock('2026-01-01T00:00:00Z'),
      sandboxClock: () => manualClock('2026-01-01T00:00:00Z'),
      realNow: Date.now,
      standingFaults: [],
      bounds: { ...DEFAULT_BOUNDS, journalMiB: 1 },
    });
  const post = (key: string, index: number) =>
    new Request(`http://x/v1/pets?n=${index}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Rex ${index}`, categoryId: 1, tags: ['x'.repeat(30_000)] }),
    });

  it('share one budget: a sandbox flooding its journal evicts the main world’s oldest, and deleting it gives the room back', async () => {
    const { main, sandboxes, handle } = worlds();
    for (let i = 0; i < 5; i++) await handle(post(KEY, i), IN_PROCESS);
    expect(main.requests).toHaveLength(5);
    const sandbox = sandboxes.open()!;
    // Each create keeps its body: about 60 KB counted, so 1 MiB holds some 16 of them in all.
    for (let i = 0; i < 20; i++) expect((await handle(post(sandbox.keys.free, i), IN_PROCESS)).status).toBe(201);
    expect(main.requests).toHaveLength(0);
    const kept = sandbox.controls.requests.length;
    expect(kept).toBeGreaterThan(10);
    expect(kept).toBeLessThan(20);
    expect(sandbox.controls.requests.at(-1)!.query).toBe('n=19');
    sandboxes.delete(sandbox.id);
    for (let i = 5; i < 5 + kept; i++) await handle(post(KEY, i), IN_PROCESS);
    expect(main.requests).toHaveLength(kept);
    expect(main.requests[0]!.query).toBe('n=5');
  });
});
