/** How the dashboard's buttons run an admin call: one at a time per panel, what it did said in a status line, a refusal's message in an alert, a wrong token signing the page out. */
import { createContext } from 'preact';
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useContext, useState } from 'preact/hooks';
import { AdminRefusal } from './admin-fetch.ts';

/**
 * What the page does when the admin API refuses the token (401, or 429 once banned): sign out,
 * showing the server's message on the sign-in form.
 *
 * @example
 * html`<${SignOut.Provider} value=${(message) => setSignedOut(message)}>…</>`;
 */
export const SignOut = createContext<(message: string) => void>(() => undefined);

/** The last thing a panel's action said: done, or refused. */
interface Notice {
  readonly text: string;
  readonly failed: boolean;
}

/**
 * A panel's actions: `act` runs one (the panel's buttons disabled while `busy`), and `notice` shows
 * what it said. An action resolves to the text to show, or nothing to show nothing.
 *
 * @example
 * const { act, busy, notice } = useActions();
 * html`<button disabled=${busy} onClick=${() => act(async () => (await adminJson('reset', { body: {} }), 'Reset.'))}>Reset</button>${notice}`;
 */
export function useActions(): { act: (work: () => Promise<string | undefined>) => Promise<void>; busy: boolean; notice: VNode } {
  const signOut = useContext(SignOut);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<Notice | undefined>(undefined);
  async function act(work: () => Promise<string | undefined>) {
    setBusy(true);
    try {
      const text = await work();
      setSaid(text === undefined ? undefined : { text, failed: false });
    } catch (failure) {
      if (failure instanceof AdminRefusal && (failure.status === 401 || failure.status === 429)) return signOut(failure.message);
      setSaid({ text: failure instanceof Error ? failure.message : String(failure), failed: true });
    } finally {
      setBusy(false);
    }
  }
  // Two live regions that stay in the page, so a screen reader hears each change in its own way.
  const notice = html`<p class="notice" role="status">${said && !said.failed ? said.text : ''}</p>
    <p class="notice failed" role="alert">${said?.failed ? said.text : ''}</p>`;
  return { act, busy, notice };
}

/**
 * The trimmed value of the field `name` of `form`.
 *
 * @example
 * formField(event.currentTarget as HTMLFormElement, 'count'); // '25'
 */
export function formField(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value.trim();
}
