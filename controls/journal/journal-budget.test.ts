/** The journals' budget at its edges: the smallest budget and journal, a world's count dropping an exchange from the middle of the budget's list, and a budget not made for journals. */
import { describe, expect, it } from 'vitest';
import { journalEntry } from '../../test/helpers/journal-entry.ts';
import type { RecordedExchange } from './journal.ts';
import { createJournal, exchangeBytes, type JournalBudget, journalBudget } from './journal-memory.ts';

/** An exchange of `path`, its body `size` characters. */
const exchange = (path: string, size = 0): RecordedExchange => journalEntry({ path, requestBody: 'x'.repeat(size) });

const paths = (entries: readonly RecordedExchange[]) => entries.map((entry) => entry.path);
/** What one exchange of this file costs: every path is three characters. */
const ONE = exchangeBytes(exchange('/a1'));

describe('exchangeBytes of an exchange with every part', () => {
  it('counts the query, both bodies and the answer headers too, each unit twice', () => {
    const full: RecordedExchange = {
      ...exchange('/a1', 5),
      query: 'q=1',
      responseBody: 'answer',
      responseHeaders: { 'content-type': 'text/plain' },
    };
    const units = 'GET/a1q=1http://x/a1'.length + 5 + 'answer'.length + '2026-01-01T00:00:00.000Z'.length + 'content-typetext/plain'.length;
    expect(exchangeBytes(full)).toBe(256 + 2 * units);
  });
});

describe('journalBudget and createJournal at their smallest', () => {
  it('takes a budget of 1 byte, which keeps the newest exchange alone', () => {
    const journal = createJournal(10, journalBudget(1));
    journal.record(exchange('/a1'));
    journal.record(exchange('/a2'));
    expect(paths(journal.entries())).toEqual(['/a2']);
  });

  it('takes a journal of one exchange, and refuses a size of 0 or not whole with a TypeError naming it', () => {
    const journal = createJournal(1);
    journal.record(exchange('/a1'));
    journal.record(exchange('/a2'));
    expect(paths(journal.entries())).toEqual(['/a2']);
    expect(() => createJournal(0)).toThrow(new TypeError('journalSize must be a whole number, 1 or more, got 0'));
    expect(() => createJournal(2.5)).toThrow(new TypeError('journalSize must be a whole number, 1 or more, got 2.5'));
  });

  it('refuses a budget journalBudget() did not make', () => {
    const forged: JournalBudget = { maxBytes: 1024, bytes: 0 };
    expect(() => createJournal(10, forged)).toThrow(new TypeError('createJournal: budget must be made by journalBudget()'));
  });
});

describe('a shared budget when a world drops past its count', () => {
  it('takes the dropped exchange out of the middle of the budget’s order: the budget then drops the oldest that is left', () => {
    const budget = journalBudget(3 * ONE);
    const small = createJournal(1, budget);
    const other = createJournal(10, budget);
    other.record(exchange('/b1'));
    small.record(exchange('/a1'));
    // `/a1`, between `/b1` and `/a2` in the budget's order, goes for the count.
    small.record(exchange('/a2'));
    other.record(exchange('/b2'));
    expect(budget.bytes).toBe(3 * ONE);
    other.record(exchange('/b3'));
    expect([paths(small.entries()), paths(other.entries())]).toEqual([['/a2'], ['/b2', '/b3']]);
    other.record(exchange('/b4'));
    expect([paths(small.entries()), paths(other.entries())]).toEqual([[], ['/b2', '/b3', '/b4']]);
    expect(budget.bytes).toBe(3 * ONE);
  });

  it('drops the newest of the budget’s order when it is a world’s oldest, and goes on from the one before', () => {
    const budget = journalBudget(2 * ONE);
    const small = createJournal(1, budget);
    const other = createJournal(10, budget);
    other.record(exchange('/b1'));
    small.record(exchange('/a1'));
    small.record(exchange('/a2'));
    small.clear();
    expect(budget.bytes).toBe(ONE);
    // `/a2` was the newest: `/b1` is the newest again, and what comes next follows it.
    other.record(exchange('/b2'));
    other.record(exchange('/b3'));
    other.record(exchange('/b4'));
    expect(paths(other.entries())).toEqual(['/b3', '/b4']);
    expect(budget.bytes).toBe(2 * ONE);
  });
});
