/** The dashboard's sign-in form: the "Admin token" field, tried against the admin API before it is kept for the tab. */
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { formField } from './actions.ts';
import { adminFetch, AdminRefusal, keepToken } from './admin-fetch.ts';

/**
 * The form: on submit, the token is sent once (`GET /__admin/sandboxes`); a success keeps it in
 * sessionStorage and calls `onSignedIn`, a refusal (401, 429 when banned) shows the server's message.
 * `reason` is why the page signed out, if it did.
 *
 * @example
 * html`<${SignIn} reason=${reason} onSignedIn=${() => setSignedIn(true)} />`;
 */
export function SignIn({ reason, onSignedIn }: { reason: string | undefined; onSignedIn: () => void }): VNode {
  const [refusal, setRefusal] = useState(reason);
  const [busy, setBusy] = useState(false);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    const token = formField(event.currentTarget as HTMLFormElement, 'token');
    setBusy(true);
    try {
      await adminFetch('sandboxes', {}, token);
      keepToken(token);
      onSignedIn();
    } catch (failure) {
      setRefusal(failure instanceof AdminRefusal ? failure.message : String(failure));
      setBusy(false);
    }
  }

  return html`<form class="sign-in" aria-labelledby="sign-in-title" onSubmit=${submit}>
    <h2 id="sign-in-title">Sign in</h2>
    <p>The token the server was started with (<code>--admin-token</code>). This tab keeps it until it closes.</p>
    <label>Admin token <input name="token" type="password" autocomplete="off" spellcheck="false" required /></label>
    <button type="submit" disabled=${busy}>Sign in</button>
    <p class="notice failed" role="alert">${refusal ?? ''}</p>
  </form>`;
}
