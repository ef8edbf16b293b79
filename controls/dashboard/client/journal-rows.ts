/** The rows of the dashboard's "Requests" table: the journals' exchanges newest first, at most {@link MAX_ROWS}, and the filters over them. */
import type { RecordedExchange } from '../../journal/journal.ts';

/**
 * The most rows the page keeps: older ones go as new ones come, so a busy server cannot grow the
 * page's memory without bound.
 *
 * @example
 * fetch(`/__admin/requests?limit=${MAX_ROWS}`);
 */
export const MAX_ROWS = 500;

/**
 * An exchange as the admin API sends it: the journal's, with the caller's plan when its key had one.
 *
 * @example
 * const exchange: Exchange = { ...recorded, plan: 'pro' };
 */
export type Exchange = RecordedExchange & { readonly plan?: string };

/**
 * One exchange and the world whose journal holds it (`null`: the main world); `key` tells rows apart for as long as the page lives.
 *
 * @example
 * const row: Row = { key: 1, sandbox: null, exchange };
 */
export interface Row {
  readonly key: number;
  readonly sandbox: string | null;
  readonly exchange: Exchange;
}

/**
 * An exchange as the event stream and the journals hand it over, before it is a row.
 *
 * @example
 * const arrival: Arrival = JSON.parse(event.data);
 */
export interface Arrival {
  readonly sandbox: string | null;
  readonly exchange: Exchange;
}

let lastKey = 0;
const rowOf = ({ sandbox, exchange }: Arrival): Row => ({ key: ++lastKey, sandbox, exchange });

/** One world's exchange as a text to compare: the same exchange fetched and streamed gives the same text. */
const sameness = ({ sandbox, exchange }: Arrival) => `${sandbox}\n${JSON.stringify(exchange)}`;

/**
 * The rows of the journals as fetched (each world's exchanges oldest first, as the admin API sends
 * them), then of `streamed`: the exchanges that arrived while they were fetched, less those the
 * fetch already had. Newest first: by the store's time across worlds (each world keeps its own
 * clock, so that order is only as good as theirs), the streamed ones before all; at most {@link MAX_ROWS}.
 *
 * @example
 * loadedRows([{ sandbox: null, exchanges: mainJournal }], []);
 */
export function loadedRows(journals: readonly { sandbox: string | null; exchanges: readonly Exchange[] }[], streamed: readonly Arrival[]): Row[] {
  const fetched = journals.flatMap(({ sandbox, exchanges }) => exchanges.map((exchange, order) => ({ sandbox, exchange, order })));
  fetched.sort((a, b) => Date.parse(b.exchange.time) - Date.parse(a.exchange.time) || b.order - a.order);
  const seen = new Set(fetched.map(sameness));
  const missed = streamed.filter((arrival) => !seen.has(sameness(arrival))).reverse();
  return [...missed, ...fetched].slice(0, MAX_ROWS).map(rowOf);
}

/**
 * `rows` with `arrived` on top (the newest of them first), the oldest left out past {@link MAX_ROWS}.
 *
 * @example
 * setRows((rows) => withArrived(rows, [arrival]));
 */
export function withArrived(rows: readonly Row[], arrived: readonly Arrival[]): Row[] {
  return [...arrived.map(rowOf).reverse(), ...rows].slice(0, MAX_ROWS);
}

/**
 * What the "Requests" table shows, each field empty for any: a method, text in the path and query,
 * the start of a status (`5` for every 5xx, `503` for one), a world (`main` or a sandbox's id).
 *
 * @example
 * const filter: RowFilter = { method: 'POST', path: '/v1/pets', status: '4', world: '' };
 */
export interface RowFilter {
  readonly method: string;
  readonly path: string;
  readonly status: string;
  readonly world: string;
}

/**
 * The predicate of the rows `filter` shows.
 *
 * @example
 * rows.filter(rowsShown({ method: '', path: '', status: '5', world: 'main' }));
 */
export function rowsShown({ method, path, status, world }: RowFilter): (row: Row) => boolean {
  const wanted = path.trim();
  return ({ sandbox, exchange }) =>
    (method === '' || exchange.method === method) &&
    (wanted === '' || target(exchange).includes(wanted)) &&
    (status.trim() === '' || String(exchange.status).startsWith(status.trim())) &&
    (world === '' || (sandbox ?? 'main') === world);
}

/**
 * An exchange's path with its query, as it was asked for.
 *
 * @example
 * target({ path: '/v1/pets', query: 'limit=2' }); // '/v1/pets?limit=2'
 */
export function target({ path, query }: Pick<Exchange, 'path' | 'query'>): string {
  return query === '' ? path : `${path}?${query}`;
}
