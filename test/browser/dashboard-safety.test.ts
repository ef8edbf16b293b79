/** The admin dashboard in real Chromium, what it must never do: call another origin, keep the token anywhere but sessionStorage, or run a script a caller sent. */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { headerValue, KEY, openDashboard, payloadEffects, signIn, TOKEN, table } from './dashboard.ts';

vi.setConfig({ testTimeout: 60_000, expect: { poll: { timeout: 20_000 } } });

/** Script payloads as callers send them: each sets `window.__pwned` or opens a dialog if it ever runs. */
const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=2;alert(2)</script>';
const SVG = '"><svg/onload=window.__pwned=3>';
/** The image payload without spaces, as a request line can carry it. */
const IMG_IN_PATH = '<img/src=x/onerror=window.__pwned=4>';

/** Sends `target` as it is (no encoding) in a raw request line with the key, and waits for the server to close. */
function rawRequest(origin: string, target: string, key: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\nX-Payload: ${SCRIPT}\r\nConnection: close\r\n\r\n`),
    );
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the dashboard in Chromium, safely', () => {
  it('sends every request to its own origin: the page, its script, styles and icon, the admin API, the live stream and the HAR', async () => {
    const opened = await openDashboard();
    const { page, origin, requested } = opened;
    await signIn(page);
    await opened.api('/v1/pets');
    await table(page, 'Requests').getByRole('button', { name: '/v1/pets', exact: true }).click();
    await page.getByRole('button', { name: 'Close' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download HAR' }).click();
    expect((await download).suggestedFilename()).toBe('petstore-requests.har');

    const paths = new Set(requested.map((url) => new URL(url).pathname));
    const everyPart = [
      '/__admin/',
      '/__admin/dashboard.js',
      '/__admin/dashboard.css',
      '/__admin/favicon.svg',
      '/__admin/requests',
      '/__admin/requests/events',
      '/__admin/requests.har',
    ];
    expect([...paths]).toEqual(expect.arrayContaining(everyPart));
    // A blob: URL (the HAR saved) names the page's origin too; a request the CSP stopped is no request, but a violation.
    expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect((await payloadEffects(opened)).violations).toEqual([]);
  });

  it('keeps the token in sessionStorage only: no localStorage, no cookie, no URL; the journal and the HAR show it redacted; signing out forgets it', async () => {
    const opened = await openDashboard();
    const { page, context, requested } = opened;
    await signIn(page);
    // A client that sends the admin token to the API: the journal keeps it redacted, as every secret.
    await opened.api(`/v1/pets?token=${TOKEN}`, { headers: { 'x-admin-token': TOKEN } });
    const row = table(page, 'Requests').getByRole('button', { name: '/v1/pets?token=[redacted]' });
    await row.click();
    const dialog = page.getByRole('dialog');
    expect(await headerValue(dialog, 'Request headers', 'x-admin-token')).toBe('[redacted]');
    await dialog.getByRole('button', { name: 'Close' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download HAR' }).click();
    const har = readFileSync(await (await download).path(), 'utf8');
    expect(har).toContain('[redacted]');

    expect(await page.evaluate(() => ({ local: localStorage.length, session: Object.entries(sessionStorage), cookie: document.cookie }))).toEqual({
      local: 0,
      session: [['petstore-admin-token', TOKEN]],
      cookie: '',
    });
    expect(await context.cookies()).toEqual([]);
    expect(requested.filter((url) => url.includes(TOKEN))).toEqual([]);
    expect(await page.content()).not.toContain(TOKEN);
    expect(har).not.toContain(TOKEN);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('shows script payloads sent in the path, the query, a header and the body as the text sent, and runs none of them', async () => {
    const opened = await openDashboard();
    const { page, origin } = opened;
    await signIn(page);
    expect(await rawRequest(origin, `/v1/pets/${SVG}?q=${IMG_IN_PATH}`, KEY)).toMatch(/^HTTP\/1\.1 404 /);
    const body = JSON.stringify({ name: IMG, categoryId: 1, tag: SVG });
    await opened.api('/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json', 'x-payload': SCRIPT }, body });

    const requests = table(page, 'Requests');
    const pathShown = `/v1/pets/${SVG}?q=${IMG_IN_PATH}`;
    await requests.getByRole('button', { name: pathShown, exact: true }).click();
    let dialog = page.getByRole('dialog', { name: `GET ${pathShown}` });
    expect(await dialog.getByRole('heading', { level: 2 }).textContent()).toBe(`GET ${pathShown}`);
    expect(await headerValue(dialog, 'Request headers', 'x-payload')).toBe(SCRIPT);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await requests.getByRole('button', { name: '/v1/pets', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'POST /v1/pets' });
    expect(JSON.parse((await dialog.getByLabel('Request body').textContent())!)).toEqual({ name: IMG, categoryId: 1, tag: SVG });
    expect(await headerValue(dialog, 'Request headers', 'x-payload')).toBe(SCRIPT);

    // No element a payload would have made is in the page, and nothing ran.
    expect(await page.locator('#dashboard img, #dashboard svg, #dashboard script').count()).toBe(0);
    expect(await payloadEffects(opened)).toEqual({ pwned: null, dialogs: [], violations: [] });
  });
});
