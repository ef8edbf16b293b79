/** The admin dashboard in real Chromium against the built command: signing in, requests arriving live and opened, the clock, a fault, a sandbox opened and deleted, and no dashboard without the admin API. */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import { describe, expect, it, vi } from 'vitest';
import { headerValue, openDashboard, signIn, table } from './dashboard.ts';

// What the page shows comes after a server's answer and a render: on a busy machine that can take
// longer than expect.poll's default of 1 s; each check still passes as soon as it holds.
vi.setConfig({ testTimeout: 60_000, expect: { poll: { timeout: 20_000 } } });

describe('the dashboard in Chromium', () => {
  it('signs in with the admin token, shows a request the test makes in "Requests" without a reload, and opens it with its headers and bodies', async () => {
    const opened = await openDashboard();
    const { page } = opened;
    await signIn(page);
    await table(page, 'Sandboxes').waitFor();
    const requests = table(page, 'Requests');
    await requests.waitFor();
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    const created = await opened.api('/v1/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Rex the live","categoryId":3}',
    });
    expect(created.status).toBe(201);

    const row = requests.getByRole('row').filter({ has: page.getByRole('button', { name: '/v1/pets', exact: true }) });
    await expect
      .poll(() => row.getByRole('cell').allTextContents())
      .toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d$/), 'POST', '/v1/pets', '201', 'pro', expect.stringMatching(/^[\d.]+ ms$/), 'main']);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    await row.getByRole('button', { name: '/v1/pets' }).click();
    const dialog = page.getByRole('dialog', { name: 'POST /v1/pets' });
    await dialog.waitFor();
    expect(await headerValue(dialog, 'Request headers', 'content-type')).toBe('application/json');
    expect(await headerValue(dialog, 'Request headers', 'authorization')).toBe('Bearer [redacted]');
    expect(JSON.parse((await dialog.getByLabel('Request body').textContent())!)).toEqual({ name: 'Rex the live', categoryId: 3 });
    expect(await headerValue(dialog, 'Response headers', 'x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(JSON.parse((await dialog.getByLabel('Response body').textContent())!)).toEqual({ id: 1, name: 'Rex the live', categoryId: 3 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('shows a wrong token the server’s 401 message and keeps nothing of it', async () => {
    const { page } = await openDashboard();
    await signIn(page, 'not-the-admin-token-0123');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('The admin token is wrong: send Authorization: Bearer <admin token>, the token the server was started with.');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await table(page, 'Requests').count()).toBe(0);
  });

  it('advances the clock (the shown time is what GET /__admin/clock says), adds a fault the next API request meets, removes one, and opens and deletes a sandbox', async () => {
    const opened = await openDashboard();
    const { page } = opened;
    await signIn(page);

    const shown = page.getByLabel('World time');
    await expect.poll(() => shown.textContent()).toMatch(/^\d{4}-\d\d-\d\dT/);
    const before = Date.parse((await shown.textContent())!);
    await page.getByLabel('Advance by').fill('2');
    await page.getByLabel('Unit').selectOption('days');
    await page.getByRole('button', { name: 'Advance clock' }).click();
    await expect.poll(async () => Date.parse((await shown.textContent())!) - before).toBeGreaterThanOrEqual(2 * 86_400_000);
    expect(await shown.textContent()).toBe((await opened.admin<{ now: string }>('clock')).now);

    const fault = page.getByRole('form', { name: 'Add a fault' });
    await fault.getByLabel('Path').fill('/v1/pets');
    await fault.getByLabel('Status').fill('503');
    await fault.getByRole('button', { name: 'Add fault' }).click();
    const faults = table(page, 'Faults').getByRole('row').nth(1).getByRole('cell');
    await expect
      .poll(() => faults.allTextContents())
      .toEqual([expect.stringMatching(/./), 'any method /v1/pets → 503', '1', expect.stringMatching(/^Remove fault-/)]);
    const met = await opened.api('/v1/pets');
    expect({ status: met.status, code: (await met.json()).code }).toEqual({ status: 503, code: 'service_unavailable' });
    expect((await opened.api('/v1/pets')).status).toBe(200);
    await fault.getByLabel('Times').fill('always');
    await fault.getByRole('button', { name: 'Add fault' }).click();
    await expect.poll(async () => (await opened.admin<{ id: string }[]>('faults')).length).toBe(1);
    const [{ id: standing }] = await opened.admin<[{ id: string }]>('faults');
    await page.getByRole('button', { name: `Remove ${standing}` }).click();
    await expect.poll(() => opened.admin('faults')).toEqual([]);
    expect((await opened.api('/v1/pets')).status).toBe(200);

    await page.getByRole('button', { name: 'Open sandbox' }).click();
    await expect.poll(async () => (await opened.admin<{ id: string }[]>('sandboxes')).length).toBe(1);
    const { id } = (await opened.admin<{ id: string }[]>('sandboxes'))[0]!;
    const sandboxes = table(page, 'Sandboxes');
    await expect.poll(() => sandboxes.getByRole('row').nth(1).getByRole('cell').first().textContent()).toBe(id);
    await page.getByRole('button', { name: `Delete sandbox ${id}` }).click();
    await expect.poll(() => sandboxes.textContent()).toContain('No sandbox is open.');
    expect(await opened.admin('sandboxes')).toEqual([]);
  });

  it('is not there without the admin API: GET /__admin/ answers a JSON 404', async () => {
    const { page, origin } = await openDashboard(['--key', 'dashboard-api-key-0123456789:pro']);
    const answer = await page.goto(`${origin}/__admin/`);
    expect(answer?.status()).toBe(404);
    expect(answer?.headers()['content-type']).toMatch(/^application\/json/);
    expect(await answer?.json()).toMatchObject({ code: 'not_found', status: 404 });
  });
});
