/** The dialog a row of "Requests" opens: the request and the response, each with its headers and body, all shown as text. */
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { type Row, target } from './journal-rows.ts';

/** A body as text to read: JSON indented, anything else as it was kept. */
function readable(body: string): string {
  if (body === '' || body.length > 200_000) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** A table of headers named `caption`, a row per header, names and values as text. */
function headerTable(caption: string, headers: Readonly<Record<string, string>>, truncated: boolean | undefined): VNode {
  const entries = Object.entries(headers);
  return html`<table class="headers">
    <caption>${caption}${truncated ? ' (some left out or cut)' : ''}</caption>
    <tbody>
      ${entries.length === 0 ? html`<tr><td>none</td></tr>` : entries.map(([name, value]) => html`<tr><th scope="row">${name}</th><td>${value}</td></tr>`)}
    </tbody>
  </table>`;
}

/** A body under the label `label`: `none` when empty, a note when the journal kept only its start. */
function bodyBlock(label: string, body: string, truncated: boolean | undefined): VNode {
  return html`<h4>${label}${truncated ? ' (its start only)' : ''}</h4>
    <pre aria-label=${label} tabindex="0">${body === '' ? '(none)' : readable(body)}</pre>`;
}

/**
 * The modal dialog of `row`'s exchange, named by its method and target; `onClose` when it closes
 * (Escape, its button).
 *
 * @example
 * html`${open && html`<${ExchangeDialog} row=${open} onClose=${() => setOpen(undefined)} />`}`;
 */
export function ExchangeDialog({ row, onClose }: { row: Row; onClose: () => void }): VNode {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const shown = dialog.current!;
    shown.showModal();
    return () => shown.close();
  }, []);
  const { exchange, sandbox } = row;
  const status = exchange.status === 0 ? 'no answer (network fault)' : String(exchange.status);
  return html`<dialog ref=${dialog} class="exchange" aria-labelledby="exchange-title" onClose=${onClose}>
    <header>
      <h2 id="exchange-title">${exchange.method} ${target(exchange)}</h2>
      <button type="button" onClick=${() => dialog.current!.close()}>Close</button>
    </header>
    <dl class="facts">
      <dt>Status</dt><dd>${status}</dd>
      <dt>Plan</dt><dd>${exchange.plan ?? 'none'}</dd>
      <dt>Duration</dt><dd>${exchange.ms} ms</dd>
      <dt>Time</dt><dd>${exchange.time}</dd>
      <dt>World</dt><dd>${sandbox ?? 'main'}</dd>
      <dt>URL</dt><dd>${exchange.url}</dd>
    </dl>
    <section aria-label="Request">
      <h3>Request</h3>
      ${headerTable('Request headers', exchange.requestHeaders, exchange.requestHeadersTruncated)}
      ${bodyBlock('Request body', exchange.requestBody, exchange.requestBodyTruncated)}
    </section>
    <section aria-label="Response">
      <h3>Response</h3>
      ${headerTable('Response headers', exchange.responseHeaders, false)}
      ${bodyBlock('Response body', exchange.responseBody, false)}
    </section>
  </dialog>`;
}
