/**
 * The command's journal as HAR, replayed: the built command answers a few requests, its
 * /__admin/requests.har (valid under the HAR 1.2 JSON Schema) is written to a file, the command
 * stops, and Playwright's routeFromHAR answers a Chromium page's fetches from that file alone.
 */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Har } from '../../controls/index.ts';
import { listening, runCli } from '../helpers/cli.ts';
import { harProblems } from '../helpers/har-schema.ts';
import { launchChromium } from './browser.ts';

const TOKEN = 'admin-token-0123456789';
const KEY = 'replay-key-0123456789';

/** What a client saw of one answer: status, the headers that make this API what it is, and the body. */
interface Seen {
  readonly status: number;
  readonly headers: Record<string, string | null>;
  readonly body: string;
}
const SHOWN = ['content-type', 'location', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'deprecation', 'sunset', 'link'];

/** The requests the page makes again: each answered by the command first, then by the HAR. */
const REQUESTS: { path: string; method: string; body?: string }[] = [
  { path: '/v1/pets', method: 'POST', body: '{"name":"Rex","categoryId":1}' },
  { path: '/v1/pets?limit=5', method: 'GET' },
  { path: '/v1/pets/1', method: 'GET' },
  { path: '/v1/pets/99', method: 'GET' },
];

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('the command’s requests.har, replayed by Playwright’s routeFromHAR in Chromium', () => {
  it('answers the page’s fetches with the status, headers and bodies the command sent, with the command stopped', async () => {
    const cli = runCli(['--port', '0', '--quiet', '--key', `${KEY}:pro`], { PETSTORE_ADMIN_TOKEN: TOKEN });
    const origin = new URL(await listening(cli)).origin;
    const seen: Seen[] = [];
    for (const { path, method, body } of REQUESTS) {
      const headers = { authorization: `Bearer ${KEY}`, ...(body && { 'content-type': 'application/json' }) };
      const response = await fetch(`${origin}${path}`, { method, headers, body });
      seen.push({ status: response.status, headers: Object.fromEntries(SHOWN.map((name) => [name, response.headers.get(name)])), body: await response.text() });
    }
    expect(seen.map((answer) => answer.status)).toEqual([201, 200, 200, 404]);

    const answer = await fetch(`${origin}/__admin/requests.har`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const har = (await answer.json()) as Har;
    expect(harProblems(har)).toEqual([]);
    expect(har.log.creator.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(har.log.entries.map((entry) => entry.request.url)).toEqual(REQUESTS.map(({ path }) => `${origin}${path}`));
    expect(JSON.stringify(har)).not.toContain(KEY);
    folder = mkdtempSync(join(tmpdir(), 'petstore-har-'));
    const file = join(folder, 'requests.har');
    writeFileSync(file, JSON.stringify(har));
    cli.child.kill('SIGTERM');
    await cli.exited;

    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      await context.routeFromHAR(file, { url: '**/v1/**', notFound: 'abort' });
      const page = await context.newPage();
      // The origin the HAR names, its page served here: the command is gone.
      await page.route(`${origin}/`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>replay</title>' }));
      await page.goto(`${origin}/`);
      const replayed = await page.evaluate(
        async ({ requests, key, shown }) => {
          const answers = [];
          for (const { path, method, body } of requests) {
            const headers = { authorization: `Bearer ${key}`, ...(body && { 'content-type': 'application/json' }) };
            const response = await fetch(path, { method, headers, body });
            answers.push({
              status: response.status,
              headers: Object.fromEntries(shown.map((name) => [name, response.headers.get(name)])),
              body: await response.text(),
            });
          }
          return answers;
        },
        { requests: REQUESTS, key: KEY, shown: SHOWN },
      );
      expect(replayed).toEqual(seen);
      // A request the HAR does not hold is aborted, as notFound asks: nothing reaches a network.
      const missing = await page.evaluate(() =>
        fetch('/v1/pets/2').then(
          () => 'answered',
          (error: Error) => error.name,
        ),
      );
      expect(missing).toBe('TypeError');
    } finally {
      await browser.close();
    }
  }, 60_000);
});
