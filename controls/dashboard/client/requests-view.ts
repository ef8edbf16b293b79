/** The "Requests" panel: the filters, whether the journal is live, and the table of exchanges, newest first, each row opening its exchange. */
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { ExchangeDialog } from './exchange-dialog.ts';
import { MAX_ROWS, type Row, type RowFilter, rowsShown, target } from './journal-rows.ts';
import type { LiveJournal } from './use-journal.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** What the live region says of the stream. */
const STATE_TEXT: Record<LiveJournal['state'], string> = {
  loading: 'Loading the journals…',
  connecting: 'Connecting…',
  live: 'Live',
  retrying: 'Not live: reconnecting…',
  refused: 'Not live: the token was refused',
};

/** A time as the table shows it: the store's clock, to the second, in UTC. */
const clockTime = (iso: string) => iso.slice(11, 19);

/** One row: its cells as text, the target a button that opens the exchange. */
function requestRow(row: Row, open: (row: Row) => void): VNode {
  const { exchange, sandbox } = row;
  const failed = exchange.status === 0 || exchange.status >= 500 ? 'server' : exchange.status >= 400 ? 'client' : '';
  return html`<tr key=${row.key} class=${failed}>
    <td><time datetime=${exchange.time}>${clockTime(exchange.time)}</time></td>
    <td>${exchange.method}</td>
    <td class="target"><button type="button" class="link" onClick=${() => open(row)}>${target(exchange)}</button></td>
    <td>${exchange.status === 0 ? 'reset' : exchange.status}</td>
    <td>${exchange.plan ?? ''}</td>
    <td class="number">${exchange.ms} ms</td>
    <td>${sandbox ?? 'main'}</td>
  </tr>`;
}

/**
 * The panel over `journal`; `worlds` are the sandboxes' ids the world filter offers beside the main world.
 *
 * @example
 * html`<${RequestsView} journal=${journal} worlds=${sandboxes.map((s) => s.id)} />`;
 */
export function RequestsView({ journal, worlds }: { journal: LiveJournal; worlds: readonly string[] }): VNode {
  const [filter, setFilter] = useState<RowFilter>({ method: '', path: '', status: '', world: '' });
  const [open, setOpen] = useState<Row | undefined>(undefined);
  const set = (field: keyof RowFilter) => (event: Event) => setFilter({ ...filter, [field]: (event.currentTarget as HTMLInputElement).value });
  const shown = journal.rows.filter(rowsShown(filter));
  // A world that is gone may still have rows; one just opened may have none yet.
  const worldIds = [...new Set([...worlds, ...journal.rows.flatMap((row) => (row.sandbox === null ? [] : [row.sandbox]))])];

  return html`<section class="requests" aria-labelledby="requests-title">
    <h2 id="requests-title">Requests</h2>
    <p class=${`live state-${journal.state}`} role="status">${STATE_TEXT[journal.state]}</p>
    <form class="filters" aria-label="Filter requests" onSubmit=${(event: Event) => event.preventDefault()}>
      <label>Method <select value=${filter.method} onChange=${set('method')}>
        <option value="">any</option>
        ${METHODS.map((method) => html`<option value=${method}>${method}</option>`)}
      </select></label>
      <label>Path <input type="search" value=${filter.path} onInput=${set('path')} placeholder="/v1/pets" /></label>
      <label>Status <input type="search" inputmode="numeric" size="4" value=${filter.status} onInput=${set('status')} placeholder="5" /></label>
      <label>Sandbox <select value=${filter.world} onChange=${set('world')}>
        <option value="">any world</option>
        <option value="main">main</option>
        ${worldIds.map((id) => html`<option value=${id}>${id}</option>`)}
      </select></label>
    </form>
    <p>${shown.length === journal.rows.length ? `${shown.length} exchanges` : `${shown.length} of ${journal.rows.length} exchanges`} (the newest ${MAX_ROWS} at most)</p>
    <div class="scroll">
      <table>
        <caption class="hidden">Requests</caption>
        <thead>
          <tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th>
            <th scope="col">Plan</th><th scope="col">Duration</th><th scope="col">Sandbox</th></tr>
        </thead>
        <tbody>${shown.map((row) => requestRow(row, setOpen))}</tbody>
      </table>
    </div>
    ${open && html`<${ExchangeDialog} key=${open.key} row=${open} onClose=${() => setOpen(undefined)} />`}
  </section>`;
}
