/** The panel of one world's controls: its clock (shown, advanced), its faults, reset, seeding generated pets, "Download HAR", and the quotas its answers told. */
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { formField, useActions } from './actions.ts';
import { adminFetch, adminJson } from './admin-fetch.ts';
import { FaultsView } from './faults-view.ts';
import type { Row } from './journal-rows.ts';
import { quotasSeen } from './quotas.ts';

/** The units the clock is advanced in, in milliseconds. */
const UNITS: Record<string, number> = { seconds: 1_000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** Saves `blob` as a file named `name` through a link with `download`: nothing leaves the page, no URL holds the token. */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its bytes once it starts; the URL can go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The world's clock: its time (`GET clock`) and a form that advances it (`POST clock {advanceMs}`). */
function ClockView({ prefix, version }: { prefix: string; version: number }): VNode {
  const { act, busy, notice } = useActions();
  const [now, setNow] = useState('');
  useEffect(() => void act(async () => (setNow((await adminJson<{ now: string }>(`${prefix}clock`)).now), undefined)), [prefix, version]);
  const advance = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const advanceMs = Math.round(Number(formField(form, 'amount')) * UNITS[formField(form, 'unit')]!);
    return act(async () => {
      const moved = await adminJson<{ now: string }>(`${prefix}clock`, { body: { advanceMs } });
      setNow(moved.now);
      return `The clock now reads ${moved.now}.`;
    });
  };
  return html`<section class="clock" aria-labelledby="clock-title">
    <h3 id="clock-title">Clock</h3>
    <p>World time: <output aria-label="World time">${now}</output></p>
    <form aria-label="Advance the clock" onSubmit=${advance}>
      <label>Advance by <input name="amount" type="number" min="0" step="any" value="1" size="6" /></label>
      <label>Unit <select name="unit">${Object.keys(UNITS).map((unit) => html`<option selected=${unit === 'hours'}>${unit}</option>`)}</select></label>
      <button type="submit" disabled=${busy}>Advance clock</button>
    </form>
    ${notice}
  </section>`;
}

/** Reset, seed and the HAR download of one world; `onReset` after a reset (the journal and the clock read anew). */
function StoreView({ prefix, world, onReset }: { prefix: string; world: string; onReset: () => void }): VNode {
  const { act, busy, notice } = useActions();
  const seed = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const generate = { count: Number(formField(form, 'count')), seed: Number(formField(form, 'seed')) };
    return act(async () => {
      const seeded = await adminJson<unknown>(`${prefix}seed`, { body: { generate } });
      return `Seeded ${Array.isArray(seeded) ? seeded.length : generate.count} pets.`;
    });
  };
  const reset = () =>
    act(async () => (await adminJson(`${prefix}reset`, { method: 'POST' }), onReset(), `Reset the ${world === 'main' ? 'main world' : `sandbox ${world}`}.`));
  const download = () =>
    act(async () => {
      const har = await (await adminFetch(`${prefix}requests.har`)).blob();
      save(har, world === 'main' ? 'petstore-requests.har' : `petstore-sandbox-${world}.har`);
      return 'Downloaded the journal as HAR.';
    });
  return html`<section class="store" aria-labelledby="store-title">
    <h3 id="store-title">Pets and journal</h3>
    <form aria-label="Seed generated pets" onSubmit=${seed}>
      <label>Pets to generate <input name="count" type="number" min="1" max="10000" value="25" size="6" required /></label>
      <label>Seed <input name="seed" type="number" value="1" size="6" required /></label>
      <button type="submit" disabled=${busy}>Seed pets</button>
    </form>
    <p>
      <button type="button" disabled=${busy} onClick=${download}>Download HAR</button>
      <button type="button" class="danger" disabled=${busy} onClick=${reset}>Reset world</button>
    </p>
    ${notice}
  </section>`;
}

/** The quotas `rows` show, a row per world and plan. */
function QuotasView({ rows }: { rows: readonly Row[] }): VNode {
  const quotas = quotasSeen(rows);
  const resetAt = (seconds: string) => (/^\d+$/.test(seconds) ? new Date(Number(seconds) * 1000).toISOString().replace('T', ' ').slice(0, 19) : seconds);
  return html`<section class="quotas" aria-labelledby="quotas-title">
    <h3 id="quotas-title">Quotas</h3>
    <table>
      <caption>Quotas, as the newest answer of each plan told them</caption>
      <thead><tr><th scope="col">World</th><th scope="col">Plan</th><th scope="col">Limit</th><th scope="col">Remaining</th><th scope="col">Resets (UTC)</th><th scope="col">Policy</th></tr></thead>
      <tbody>
        ${quotas.length === 0 && html`<tr><td colspan="6">No answer with quota headers in the journal yet.</td></tr>`}
        ${quotas.map(
          (quota) => html`<tr key=${`${quota.world} ${quota.plan}`}><td>${quota.world}</td><td>${quota.plan}</td><td class="number">${quota.limit}</td>
            <td class="number">${quota.remaining}</td><td>${resetAt(quota.reset)}</td><td><code>${quota.policy}</code></td></tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

/**
 * The controls of `world` (`main`, or a sandbox's id), and the quotas of every world from `rows`;
 * `onReset` after the world was reset.
 *
 * @example
 * html`<${WorldView} world="main" rows=${journal.rows} onReset=${journal.reload} />`;
 */
export function WorldView({ world, rows, onReset }: { world: string; rows: readonly Row[]; onReset: () => void }): VNode {
  const [version, setVersion] = useState(0);
  const prefix = world === 'main' ? '' : `sandboxes/${encodeURIComponent(world)}/`;
  const afterReset = () => (setVersion((n) => n + 1), onReset());
  return html`<div class="world">
    <${ClockView} prefix=${prefix} version=${version} />
    <${FaultsView} prefix=${prefix} version=${version} />
    <${StoreView} prefix=${prefix} world=${world} onReset=${afterReset} />
    <${QuotasView} rows=${rows} />
  </div>`;
}
