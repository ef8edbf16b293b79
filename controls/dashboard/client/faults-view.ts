/** The "Faults" panel of one world: the faults that can still apply, each with "Remove <id>" (`DELETE faults/{id}`), a form that adds one (`POST faults`), and "Clear faults". */
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { PendingFault } from '../../faults/faults.ts';
import { formField, useActions } from './actions.ts';
import { adminJson } from './admin-fetch.ts';

/** A pending fault in words: which requests, and what they meet. */
function described(fault: PendingFault): string {
  const which = `${fault.method?.toUpperCase() ?? 'any method'} ${typeof fault.path === 'string' ? fault.path : 'any path'}`;
  const delay =
    fault.delayMs === undefined ? [] : [typeof fault.delayMs === 'number' ? `${fault.delayMs} ms later` : `${fault.delayMs.min}–${fault.delayMs.max} ms later`];
  const meets = [...(fault.status !== undefined ? [`${fault.status}`] : fault.network ? [`network ${fault.network}`] : []), ...delay];
  const chance = fault.probability === undefined || fault.probability === 1 ? '' : ` (${fault.probability * 100} %)`;
  return `${which} → ${meets.join(', ')}${chance}`;
}

/** The fault rule the form's fields name: only the fields filled in, numbers as numbers. */
function ruleOf(form: HTMLFormElement): Record<string, unknown> {
  const field = (name: string) => formField(form, name);
  const rule: Record<string, unknown> = {};
  if (field('method')) rule.method = field('method');
  if (field('path')) rule.path = field('path');
  if (field('status')) rule.status = Number(field('status'));
  if (field('network')) rule.network = field('network');
  if (field('delayMs')) rule.delayMs = Number(field('delayMs'));
  const times = field('times');
  if (times) rule.times = times === 'always' ? 'always' : Number(times);
  return rule;
}

/**
 * The panel of the world whose admin paths start with `prefix` (`''` for the main world,
 * `sandboxes/{id}/` for a sandbox); `version` changes when the world was reset elsewhere.
 *
 * @example
 * html`<${FaultsView} prefix="" version=${resets} />`;
 */
export function FaultsView({ prefix, version }: { prefix: string; version: number }): VNode {
  const { act, busy, notice } = useActions();
  const [faults, setFaults] = useState<readonly PendingFault[]>([]);
  const load = async () => setFaults(await adminJson<PendingFault[]>(`${prefix}faults`));
  useEffect(() => void act(async () => (await load(), undefined)), [prefix, version]);

  const add = (event: SubmitEvent) => {
    event.preventDefault();
    const rule = ruleOf(event.currentTarget as HTMLFormElement);
    return act(async () => {
      const { id } = await adminJson<{ id: string }>(`${prefix}faults`, { body: rule });
      await load();
      return `Added fault ${id}.`;
    });
  };
  const clear = () => act(async () => (await adminJson(`${prefix}faults`, { method: 'DELETE' }), await load(), 'Cleared the faults.'));
  const remove = (id: string) =>
    act(async () => (await adminJson(`${prefix}faults/${encodeURIComponent(id)}`, { method: 'DELETE' }), await load(), `Removed ${id}.`));

  return html`<section class="faults" aria-labelledby="faults-title">
    <h3 id="faults-title">Faults</h3>
    <table>
      <caption class="hidden">Faults</caption>
      <thead><tr><th scope="col">Id</th><th scope="col">Rule</th><th scope="col">Left</th><th scope="col"><span class="hidden">Remove</span></th></tr></thead>
      <tbody>
        ${faults.length === 0 && html`<tr><td colspan="4">None: every request is answered as it would be.</td></tr>`}
        ${faults.map(
          (fault) =>
            html`<tr key=${fault.id}><td><code>${fault.id}</code></td><td>${described(fault)}</td><td>${fault.left}</td><td><button type="button" disabled=${busy} onClick=${() => remove(fault.id)}>Remove ${fault.id}</button></td></tr>`,
        )}
      </tbody>
    </table>
    <p><button type="button" disabled=${busy || faults.length === 0} onClick=${clear}>Clear faults</button></p>
    <form class="fault" aria-label="Add a fault" onSubmit=${add}>
      <label>Method <input name="method" size="7" placeholder="any" /></label>
      <label>Path <input name="path" placeholder="/v1/pets" /></label>
      <label>Status <input name="status" type="number" min="400" max="599" placeholder="503" /></label>
      <label>Network <select name="network"><option value="">answer</option><option value="reset">reset</option><option value="hang">hang</option></select></label>
      <label>Delay (ms) <input name="delayMs" type="number" min="0" placeholder="0" /></label>
      <label>Times <input name="times" size="6" value="1" placeholder="always" /></label>
      <button type="submit" disabled=${busy}>Add fault</button>
    </form>
    ${notice}
  </section>`;
}
