/** The Requests table's rows: newest first across worlds, nothing fetched and streamed twice, at most MAX_ROWS, and the filters. */
import { describe, expect, it } from 'vitest';
import { type Exchange, loadedRows, MAX_ROWS, rowsShown, target, withArrived } from './journal-rows.ts';

/** An exchange answered at `second` past midnight by a store's clock. */
function exchange(path: string, second: number, fields: Partial<Exchange> = {}): Exchange {
  const time = new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
  return {
    method: 'GET',
    path,
    query: '',
    url: `http://x${path}`,
    requestHeaders: {},
    requestBody: '',
    status: 200,
    responseHeaders: {},
    responseBody: '',
    ms: 1,
    time,
    ...fields,
  };
}

const paths = (rows: { exchange: Exchange }[]) => rows.map((row) => row.exchange.path);

describe('loadedRows', () => {
  it('puts the worlds’ exchanges newest first by their time, the streamed ones on top, and leaves out a streamed one the fetch had', () => {
    const both = exchange('/both', 5);
    const rows = loadedRows(
      [
        { sandbox: null, exchanges: [exchange('/a', 1), exchange('/c', 3), both] },
        { sandbox: 'k3j9x2m1qa0b', exchanges: [exchange('/b', 2)] },
      ],
      [
        { sandbox: null, exchange: both },
        { sandbox: 'k3j9x2m1qa0b', exchange: exchange('/new', 4) },
      ],
    );
    expect(paths(rows)).toEqual(['/new', '/both', '/c', '/b', '/a']);
    expect(rows.map((row) => row.sandbox)).toEqual(['k3j9x2m1qa0b', null, null, 'k3j9x2m1qa0b', null]);
  });

  it('keeps the later of two exchanges with the same time above the earlier, as the journal listed them', () => {
    expect(paths(loadedRows([{ sandbox: null, exchanges: [exchange('/first', 1), exchange('/second', 1)] }], []))).toEqual(['/second', '/first']);
  });

  it(`keeps the newest ${MAX_ROWS} rows of many more`, () => {
    const many = Array.from({ length: MAX_ROWS + 20 }, (_, i) => exchange(`/${i}`, i));
    const rows = loadedRows([{ sandbox: null, exchanges: many }], []);
    expect(rows).toHaveLength(MAX_ROWS);
    expect(rows[0]!.exchange.path).toBe(`/${MAX_ROWS + 19}`);
  });
});

describe('withArrived', () => {
  it(`puts arrivals on top, the newest first, and drops the oldest rows past ${MAX_ROWS}`, () => {
    const full = loadedRows([{ sandbox: null, exchanges: Array.from({ length: MAX_ROWS }, (_, i) => exchange(`/${i}`, i)) }], []);
    const rows = withArrived(full, [
      { sandbox: null, exchange: exchange('/x', 0) },
      { sandbox: null, exchange: exchange('/y', 0) },
    ]);
    expect(rows).toHaveLength(MAX_ROWS);
    expect(paths(rows.slice(0, 3))).toEqual(['/y', '/x', `/${MAX_ROWS - 1}`]);
    expect(paths(rows).at(-1)).toBe('/2');
    expect(new Set(rows.map((row) => row.key)).size).toBe(MAX_ROWS);
  });
});

describe('rowsShown', () => {
  const rows = loadedRows(
    [
      { sandbox: null, exchanges: [exchange('/v1/pets', 1, { method: 'POST', status: 201 }), exchange('/v1/pets/7', 2, { status: 404, query: 'x=1' })] },
      { sandbox: 'k3j9x2m1qa0b', exchanges: [exchange('/v1/pets', 3, { status: 503 })] },
    ],
    [],
  );
  const shown = (filter: Partial<Parameters<typeof rowsShown>[0]>) =>
    paths(rows.filter(rowsShown({ method: '', path: '', status: '', world: '', ...filter }))).join(' ');

  it('shows every row with no filter', () => expect(shown({})).toBe('/v1/pets /v1/pets/7 /v1/pets'));
  it('shows a method’s rows', () => expect(shown({ method: 'POST' })).toBe('/v1/pets'));
  it('shows the rows whose path and query hold the text', () => expect(shown({ path: '7?x=' })).toBe('/v1/pets/7'));
  it('shows the rows whose status starts with the digits', () => {
    expect(shown({ status: '5' })).toBe('/v1/pets');
    expect(shown({ status: '404' })).toBe('/v1/pets/7');
  });
  it('shows the main world’s rows or a sandbox’s', () => {
    expect(shown({ world: 'main' })).toBe('/v1/pets/7 /v1/pets');
    expect(rows.filter(rowsShown({ method: '', path: '', status: '', world: 'k3j9x2m1qa0b' })).map((row) => row.exchange.status)).toEqual([503]);
  });
});

describe('target', () => {
  it('is the path with its query after a question mark, or the path alone', () => {
    expect([target({ path: '/v1/pets', query: 'limit=2' }), target({ path: '/v1/pets', query: '' })]).toEqual(['/v1/pets?limit=2', '/v1/pets']);
  });
});
