/** The admin dashboard as its Chromium tests open it: the built command with an admin token and a key, a page of a fresh browser context at `/__admin/`, and what the page did (requests, dialogs, CSP violations). */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { listening, runCli } from '../helpers/cli.ts';
import { launchChromium } from './browser.ts';

/**
 * The admin token the command is started with.
 *
 * @example
 * await signIn(page, TOKEN);
 */
export const TOKEN = 'dashboard-admin-token-0123456789';
/**
 * The command's one API key, of the pro plan.
 *
 * @example
 * await fetch(`${origin}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } });
 */
export const KEY = 'dashboard-api-key-0123456789';

let browser: Browser;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
});

/**
 * A page on the dashboard of a running command, and what it did.
 *
 * @example
 * const { page, api }: OpenedDashboard = await openDashboard();
 */
export interface OpenedDashboard {
  /** The command's origin (`http://127.0.0.1:<port>`). */
  readonly origin: string;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every URL the page requested, in order. */
  readonly requested: string[];
  /** Every dialog's message (each dismissed at once). */
  readonly dialogs: string[];
  /** `fetch` of the command's API with the key, from the test. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** The admin API's JSON at `path` (below `/__admin/`), from the test. */
  admin<T>(path: string, init?: RequestInit): Promise<T>;
}

/** Every page records the Content-Security-Policy violations it meets in `window.__violations`. */
function recordViolations() {
  const violations: string[] = [];
  (window as unknown as { __violations: string[] }).__violations = violations;
  document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
}

/**
 * Starts the command with `args` (default: the admin token and the key) and opens `/__admin/` in a
 * new context; the command is killed after the test (test/helpers/cli.ts), the context closed.
 *
 * @example
 * const { page } = await openDashboard();
 */
export async function openDashboard(args = ['--admin-token', TOKEN, '--key', `${KEY}:pro`]): Promise<OpenedDashboard> {
  const origin = new URL(await listening(runCli(['--port', '0', '--quiet', ...args]))).origin;
  const context = await browser.newContext({ acceptDownloads: true });
  contexts.push(context);
  const page = await context.newPage();
  const requested: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('dialog', (dialog) => (dialogs.push(dialog.message()), void dialog.dismiss()));
  await page.addInitScript(recordViolations);
  await page.goto(`${origin}/__admin/`);
  return {
    origin,
    context,
    page,
    requested,
    dialogs,
    api: (path, init = {}) => fetch(`${origin}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, ...init.headers } }),
    async admin(path, init = {}) {
      const response = await fetch(`${origin}/__admin/${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...init.headers } });
      expect(response.ok, `${path}: ${response.status}`).toBe(true);
      return response.status === 204 ? undefined : response.json();
    },
  };
}

/**
 * Types `token` into "Admin token" and signs in; with the right token, waits until the journal is live.
 *
 * @example
 * await signIn(page);
 */
export async function signIn(page: Page, token = TOKEN): Promise<void> {
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (token === TOKEN) await page.getByText('Live', { exact: true }).waitFor();
}

/**
 * The table with the accessible name `name`.
 *
 * @example
 * await table(page, 'Requests').getByRole('button', { name: '/v1/pets' }).first().click();
 */
export const table = (page: Page, name: string) => page.getByRole('table', { name, exact: true });

/**
 * What the page met that a script payload would have caused: the flag it sets, dialogs, CSP violations.
 *
 * @example
 * expect(await payloadEffects(opened)).toEqual({ pwned: null, dialogs: [], violations: [] });
 */
export async function payloadEffects({ page, dialogs }: OpenedDashboard) {
  const seen = await page.evaluate(() => {
    const shown = window as unknown as { __pwned?: unknown; __violations: string[] };
    return { pwned: shown.__pwned ?? null, violations: [...shown.__violations] };
  });
  return { pwned: seen.pwned, dialogs: [...dialogs], violations: seen.violations };
}

/**
 * The value the exchange dialog shows for the header `name` in its table `caption` ("Request headers", "Response headers").
 *
 * @example
 * expect(await headerValue(dialog, 'Request headers', 'content-type')).toBe('application/json');
 */
export const headerValue = (dialog: Locator, caption: string, name: string) =>
  dialog
    .getByRole('table', { name: caption })
    .getByRole('row', { name: new RegExp(`^${name}\\b`) })
    .getByRole('cell')
    .textContent();
