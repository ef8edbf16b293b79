/**
 * The dashboard's script: the page `GET /__admin/` serves, signed in with the admin token, showing
 * the journals live ("Requests"), the sandboxes ("Sandboxes") and a world's controls.
 *
 * The files of the page, for the server that serves them: this entry (bundled by esbuild as one ES
 * module, Preact and htm in it), `controls/dashboard/client/dashboard.css` (its styles, served as
 * they are) and `controls/dashboard/client/index.html` (the HTML shell, owned here: it loads
 * `dashboard.js`, `dashboard.css` and `favicon.svg` by URLs relative to `/__admin/`, with no inline
 * script or style, so the page runs under `script-src 'self'; style-src 'self'`). Every text a
 * caller sent reaches the page as a text node or an attribute's value through Preact, never as markup.
 */
import { html } from 'htm/preact';
import { render, type VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { SignOut } from './actions.ts';
import { adminJson, AdminRefusal, keepToken, storedToken } from './admin-fetch.ts';
import { RequestsView } from './requests-view.ts';
import { type SandboxSummary, SandboxesView } from './sandboxes-view.ts';
import { SignIn } from './sign-in.ts';
import { useJournal } from './use-journal.ts';
import { WorldView } from './world-view.ts';

/** How often the sandboxes are listed anew besides after a change and a sandbox's request: a list of ids and counts. */
const SANDBOXES_REFRESH_MS = 5_000;

/** The open sandboxes, fetched now and again on `refresh()`; a burst of refreshes asked while one runs makes one more. */
function useSandboxes(onRefused: (refusal: AdminRefusal) => void) {
  const [sandboxes, setSandboxes] = useState<readonly SandboxSummary[]>([]);
  const running = useRef<Promise<void> | undefined>(undefined);
  const again = useRef(false);
  const refresh = async (): Promise<void> => {
    if (running.current) {
      again.current = true;
      return running.current;
    }
    running.current = adminJson<SandboxSummary[]>('sandboxes')
      .then(setSandboxes, (failure: unknown) => {
        if (failure instanceof AdminRefusal && (failure.status === 401 || failure.status === 429)) onRefused(failure);
      })
      .finally(() => {
        running.current = undefined;
        if (again.current) (again.current = false), void refresh();
      });
    return running.current;
  };
  useEffect(() => {
    void refresh();
    // A sandbox opened by a test's fixture shows up before its first request, and idle ones go.
    const timer = setInterval(() => void refresh(), SANDBOXES_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return { sandboxes, refresh };
}

/** The signed-in page: "Requests", "Sandboxes", and the controls of the world chosen. */
function Dashboard({ signOut }: { signOut: (message: string) => void }): VNode {
  const refused = (refusal: AdminRefusal) => signOut(refusal.message);
  const { sandboxes, refresh } = useSandboxes(refused);
  const [world, setWorld] = useState('main');
  // A sandbox's counts change with each of its requests, and a new sandbox's first request names it.
  const journal = useJournal(refused, (sandbox) => sandbox !== null && void refresh());
  const chosen = world === 'main' || sandboxes.some((sandbox) => sandbox.id === world) ? world : 'main';

  return html`<div class="dashboard">
    <header class="top">
      <h1>Pet Store fake backend</h1>
      <button type="button" onClick=${() => signOut('')}>Sign out</button>
    </header>
    <${RequestsView} journal=${journal} worlds=${sandboxes.map((sandbox) => sandbox.id)} />
    <${SandboxesView} sandboxes=${sandboxes} refresh=${refresh} />
    <section class="controls" aria-labelledby="controls-title">
      <h2 id="controls-title">World</h2>
      <label>World <select value=${chosen} onChange=${(event: Event) => setWorld((event.currentTarget as HTMLSelectElement).value)}>
        <option value="main">main</option>
        ${sandboxes.map((sandbox) => html`<option value=${sandbox.id}>${sandbox.id}</option>`)}
      </select></label>
      <${WorldView} key=${chosen} world=${chosen} rows=${journal.rows} onReset=${journal.reload} />
    </section>
  </div>`;
}

/** The page: the sign-in form until the tab holds an accepted token, then the dashboard. */
function App(): VNode {
  const [signedIn, setSignedIn] = useState(storedToken() !== null);
  const [reason, setReason] = useState<string | undefined>(undefined);
  const signOut = (message: string) => {
    keepToken(null);
    setReason(message || undefined);
    setSignedIn(false);
  };
  if (!signedIn) return html`<main><h1>Pet Store fake backend</h1><${SignIn} reason=${reason} onSignedIn=${() => setSignedIn(true)} /></main>`;
  return html`<${SignOut.Provider} value=${signOut}><main><${Dashboard} signOut=${signOut} /></main></${SignOut.Provider}>`;
}

const root = document.getElementById('dashboard');
if (root) {
  root.replaceChildren();
  render(html`<${App} />`, root);
}
