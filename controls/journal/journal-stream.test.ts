/** What `GET /__admin/requests` sends: the journal as one JSON array streamed in chunks, whatever its length, and the filter an empty query asks for. */
import { describe, expect, it } from 'vitest';
import { journalEntry } from '../../test/helpers/journal-entry.ts';
import type { RecordedExchange } from './journal.ts';
import { exchangesJson, exchangesMatching, journalFilter } from './journal-query.ts';

/** Exchange number `n`, its body `size` characters. */
const exchange = (n: number, size = 0): RecordedExchange => journalEntry({ path: `/v1/pets/${n}`, requestBody: 'x'.repeat(size) });

/** Every chunk `stream` gives, as text. */
async function chunks(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const texts: string[] = [];
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) texts.push(decoder.decode(read.value));
  return texts;
}

describe('exchangesJson', () => {
  it('sends an empty journal as [] in one chunk', async () => {
    expect(await chunks(exchangesJson([]))).toEqual(['[]']);
  });

  it('sends one or two exchanges as the JSON array of them', async () => {
    const one = [exchange(1)];
    expect((await chunks(exchangesJson(one))).join('')).toBe(JSON.stringify(one));
    const two = [exchange(1), exchange(2)];
    expect((await chunks(exchangesJson(two))).join('')).toBe(JSON.stringify(two));
  });

  it('sends a journal larger than a chunk in several chunks of about 64 KiB that make the one array', async () => {
    const many = Array.from({ length: 40 }, (_, n) => exchange(n, 10_000));
    const sent = await chunks(exchangesJson(many));
    expect(sent.join('')).toBe(JSON.stringify(many));
    expect(sent.length).toBeGreaterThan(4);
    expect(sent.slice(0, -1).every((chunk) => chunk.length >= 64 * 1024 && chunk.length < 64 * 1024 + 10_500)).toBe(true);
  });
});

describe('journalFilter refusing a query', () => {
  it('says in its message that the query is what was wrong', () => {
    expect(() => journalFilter(new URLSearchParams('status=abc'))).toThrow(/^Invalid query: status must be a status/);
  });
});

describe('journalFilter of an empty query', () => {
  it('asks for nothing: no filter at all, and every exchange is named', () => {
    const filter = journalFilter(new URLSearchParams(''));
    expect(Object.keys(filter)).toEqual([]);
    expect(exchangesMatching([exchange(1), exchange(2)], filter)).toHaveLength(2);
  });
});
