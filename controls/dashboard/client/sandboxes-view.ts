/** The "Sandboxes" panel: the open sandboxes in a table (id, pets, requests, last used), "Open sandbox", and a delete per row. */
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useActions } from './actions.ts';
import { adminJson } from './admin-fetch.ts';

/**
 * A sandbox as `GET /__admin/sandboxes` lists it; `pets` and `requests` are its counts where the
 * server sends them.
 *
 * @example
 * const sandbox: SandboxSummary = { id: 'k3j9x2m1qa0b', lastUsedAt: '2026-01-01T00:00:00.000Z', pets: 3, requests: 12 };
 */
export interface SandboxSummary {
  readonly id: string;
  readonly lastUsedAt: string;
  readonly pets?: number;
  readonly requests?: number;
}

/** What `POST /__admin/sandboxes` answers: the new sandbox's id and a key per plan. */
interface OpenedSandbox {
  readonly id: string;
  readonly keys: Readonly<Record<string, string>>;
}

/** A count the server may not send, as a cell shows it. */
const count = (value: number | undefined) => (value === undefined ? '' : String(value));

/** A real time as a cell shows it: the date and time to the second, UTC. */
const realTime = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/**
 * The panel over `sandboxes`; `refresh` fetches them anew after a change.
 *
 * @example
 * html`<${SandboxesView} sandboxes=${sandboxes} refresh=${refreshSandboxes} />`;
 */
export function SandboxesView({ sandboxes, refresh }: { sandboxes: readonly SandboxSummary[]; refresh: () => Promise<void> }): VNode {
  const { act, busy, notice } = useActions();

  const open = () =>
    act(async () => {
      const { id, keys } = await adminJson<OpenedSandbox>('sandboxes', { body: {} });
      await refresh();
      const plans = Object.entries(keys).map(([plan, key]) => `${plan}: ${key}`);
      return `Opened sandbox ${id}. Its keys: ${plans.join(', ')}.`;
    });
  const remove = (id: string) =>
    act(async () => {
      await adminJson(`sandboxes/${encodeURIComponent(id)}`, { method: 'DELETE' });
      await refresh();
      return `Deleted sandbox ${id}.`;
    });

  return html`<section class="sandboxes" aria-labelledby="sandboxes-title">
    <h2 id="sandboxes-title">Sandboxes</h2>
    <p><button type="button" disabled=${busy} onClick=${open}>Open sandbox</button></p>
    ${notice}
    <div class="scroll">
      <table>
        <caption class="hidden">Sandboxes</caption>
        <thead>
          <tr><th scope="col">Id</th><th scope="col">Pets</th><th scope="col">Requests</th><th scope="col">Last used</th><th scope="col"><span class="hidden">Actions</span></th></tr>
        </thead>
        <tbody>
          ${sandboxes.length === 0 && html`<tr><td colspan="5">No sandbox is open.</td></tr>`}
          ${sandboxes.map(
            (sandbox) => html`<tr key=${sandbox.id}>
              <td><code>${sandbox.id}</code></td>
              <td class="number">${count(sandbox.pets)}</td>
              <td class="number">${count(sandbox.requests)}</td>
              <td><time datetime=${sandbox.lastUsedAt}>${realTime(sandbox.lastUsedAt)}</time></td>
              <td><button type="button" disabled=${busy} aria-label=${`Delete sandbox ${sandbox.id}`} onClick=${() => remove(sandbox.id)}>Delete</button></td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}
