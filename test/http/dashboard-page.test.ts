/**
 * The dashboard's page over a real node:http server: `/__admin/` and its files need no admin token
 * but meet the admin ban, carry a strict Content-Security-Policy, and are there only with the admin
 * API on. Every answer is checked against the served admin document (test/helpers/admin-server.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { Parser } from 'acorn';
import { afterEach, describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { manualClock } from '../../testing/index.ts';
import { adminServer, TOKEN } from '../helpers/admin-server.ts';
import { expectError, listenForTest, startServer } from '../helpers/server.ts';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const client = (name: string) => readFileSync(`controls/dashboard/client/${name}`, 'utf8');

/** The headers every file of the page carries, as a client reads them. */
const pageHeaders = (response: Response) =>
  Object.fromEntries(
    ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'cache-control'].map((name) => [name, response.headers.get(name)]),
  );
const PAGE_HEADERS = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-cache' };

describe('the dashboard with the admin API on', () => {
  it('serves the page at /__admin/ without the admin token, as HTML under a strict Content-Security-Policy', async () => {
    const server = await adminServer();
    const page = await server.adminWithout('/');
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(pageHeaders(page)).toEqual(PAGE_HEADERS);
    expect(await page.text()).toBe(client('index.html'));
  });

  it('serves its script, styles and icon beside it, each with its media type and the same headers', async () => {
    const server = await adminServer();
    const script = await server.adminWithout('/dashboard.js');
    const styles = await server.adminWithout('/dashboard.css');
    const icon = await server.adminWithout('/favicon.svg');
    expect([script.status, styles.status, icon.status]).toEqual([200, 200, 200]);
    expect([script, styles, icon].map((response) => response.headers.get('content-type'))).toEqual([
      'text/javascript; charset=utf-8',
      'text/css; charset=utf-8',
      'image/svg+xml',
    ]);
    for (const response of [script, styles, icon]) expect(pageHeaders(response)).toEqual(PAGE_HEADERS);
    // The client's module, bundled: one ES module with nothing left to import.
    const program = Parser.parse(await script.text(), { ecmaVersion: 'latest', sourceType: 'module' });
    expect(program.body.filter((node) => node.type === 'ImportDeclaration')).toEqual([]);
    expect(program.body.length).toBeGreaterThan(0);
    expect((await styles.text()).length).toBeGreaterThan(0);
    expect(await icon.text()).toBe(client('favicon.svg'));
  });

  it('answers HEAD with the headers and the length GET sends, and no body', async () => {
    const server = await adminServer();
    const get = await server.adminWithout('/dashboard.js');
    const length = new TextEncoder().encode(await get.text()).byteLength;
    const head = await server.adminWithout('/dashboard.js', { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), head.headers.get('content-length'), await head.text()]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      String(length),
      '',
    ]);
    expect(pageHeaders(head)).toEqual(PAGE_HEADERS);
  });

  it('sends /__admin on to /__admin/, where the page’s relative links resolve', async () => {
    const server = await adminServer();
    const folder = await server.adminWithout('', { redirect: 'manual' });
    expect([folder.status, folder.headers.get('location')]).toEqual([308, '__admin/']);
    expect(new URL(folder.headers.get('location')!, folder.url).pathname).toBe('/__admin/');
  });

  it('sends a store mounted at /api from /api/__admin on to /api/__admin/, and serves the page there', async () => {
    const petstore = createPetStore({ admin: { token: TOKEN }, onError: () => {} });
    const origin = await listenForTest(createServer((req, res) => void petstore(req, res, { mountPath: '/api' })));
    const folder = await fetch(`${origin}/api/__admin`, { redirect: 'manual' });
    const page = new URL(folder.headers.get('location')!, folder.url);
    expect([folder.status, page.pathname]).toEqual([308, '/api/__admin/']);
    const served = await fetch(page);
    expect([served.status, served.headers.get('content-type'), await served.text()]).toEqual([200, 'text/html; charset=utf-8', client('index.html')]);
  });

  it('answers OPTIONS with Allow, and any other method with a JSON 405 naming GET, HEAD and OPTIONS', async () => {
    const server = await adminServer();
    const options = await server.adminWithout('/', { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    for (const method of ['POST', 'DELETE', 'PUT']) {
      const refused = await server.adminWithout('/dashboard.js', { method });
      await expectError(refused, 405, 'method_not_allowed');
      expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });
});

describe('who gets the page', () => {
  const running: RunningPetStore[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });

  /** `GET /__admin<path>` from 127.0.0.2 through a proxy that says the caller is 198.51.100.9. */
  function fromElsewhere(port: string, path: string, token: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const headers = { authorization: `Bearer ${token}`, 'x-forwarded-for': '198.51.100.9' };
      const sent = request({ host: '127.0.0.1', port, path: `/__admin${path}`, localAddress: '127.0.0.2', headers, agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      sent.on('error', reject);
      sent.end();
    });
  }

  it('refuses a caller banned for wrong admin tokens the page and its files too', async () => {
    const server = await serve({ port: 0, onError: () => {}, admin: { token: TOKEN }, trustProxy: 1, now: manualClock('2026-06-01T12:00:00Z').now });
    running.push(server);
    const { port } = new URL(server.url);
    expect(await fromElsewhere(port, '/', 'wrong-token-0123456789')).toBe(200);
    for (let i = 0; i < 12; i++) await fromElsewhere(port, '/pets', 'wrong-token-0123456789');
    expect([await fromElsewhere(port, '/', 'none'), await fromElsewhere(port, '/dashboard.js', 'none'), await fromElsewhere(port, '', 'none')]).toEqual([
      429, 429, 429,
    ]);
  });

  it('is a JSON 404 at /__admin/ and each of its files without the admin API', async () => {
    const server = await startServer();
    const origin = new URL(server.url).origin;
    for (const path of ['/__admin/', '/__admin', '/__admin/dashboard.js']) {
      const body = await expectError(await fetch(`${origin}${path}`), 404, 'not_found');
      expect(body.message).toMatch(/^The admin API is off/);
    }
  });
});
