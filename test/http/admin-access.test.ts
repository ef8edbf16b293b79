/**
 * Who gets into the admin API: wrong tokens slowed by bans that never lock the operator out (a
 * forged X-Forwarded-For, a stale local client), and each refusal saying what was wrong. Real
 * node:http servers; callers on other loopback addresses (127.0.0.2…) stand for other machines.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { manualClock } from '../../testing/index.ts';
import { TOKEN } from '../helpers/admin-server.ts';
import { startServer } from '../helpers/server.ts';

const WRONG = 'wrong-token-0123456789';
const OPERATOR = '203.0.113.7';

const running: RunningPetStore[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** An admin server on 127.0.0.1 with a frozen clock: no ban ends while a test runs. */
async function adminOn(options: { trustProxy?: number } = {}) {
  const server = await serve({ port: 0, onError: () => {}, admin: { token: TOKEN }, now: manualClock('2026-06-01T12:00:00Z').now, ...options });
  running.push(server);
  return new URL(server.url).port;
}

interface Answer {
  readonly status: number;
  readonly body: { code?: string; message?: string };
}

/** `GET /__admin/pets` from `from` (a loopback address standing for a machine), with `headers`. */
function adminGet(port: string, from: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: '/__admin/pets', localAddress: from, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

const bearer = (token: string, forwardedFor?: string) => ({ authorization: `Bearer ${token}`, ...(forwardedFor && { 'x-forwarded-for': forwardedFor }) });

describe('wrong admin tokens', () => {
  it('behind --trust-proxy 1, eleven wrong tokens forging the operator’s address from elsewhere leave the operator’s requests through the proxy answered', async () => {
    const port = await adminOn({ trustProxy: 1 });
    // The forger reaches the port directly from 127.0.0.2; the operator comes through the proxy at 127.0.0.3.
    for (let i = 0; i < 12; i++) await adminGet(port, '127.0.0.2', bearer(WRONG, OPERATOR));
    expect((await adminGet(port, '127.0.0.2', bearer(WRONG, OPERATOR))).status).toBe(429);
    expect((await adminGet(port, '127.0.0.3', bearer(TOKEN, OPERATOR))).status).toBe(200);
  });

  it('behind --trust-proxy 1, rotating forged addresses from one peer get no more than the threshold’s guesses evaluated', async () => {
    const port = await adminOn({ trustProxy: 1 });
    const answers: number[] = [];
    for (let i = 0; i < 100; i++) answers.push((await adminGet(port, '127.0.0.2', bearer(WRONG, `198.51.100.${i + 1}`))).status);
    expect(answers.filter((status) => status === 401).length).toBeLessThanOrEqual(11);
    expect(answers.filter((status) => status === 429).length).toBeGreaterThanOrEqual(89);
  });

  it('behind --trust-proxy 1, an operator who showed the token through the proxy is still answered while a guesser behind the same proxy is banned', async () => {
    const port = await adminOn({ trustProxy: 1 });
    expect((await adminGet(port, '127.0.0.3', bearer(TOKEN, OPERATOR))).status).toBe(200);
    for (let i = 0; i < 12; i++) await adminGet(port, '127.0.0.3', bearer(WRONG, '198.51.100.9'));
    expect((await adminGet(port, '127.0.0.3', bearer(WRONG, '198.51.100.9'))).status).toBe(429);
    expect((await adminGet(port, '127.0.0.3', bearer(TOKEN, OPERATOR))).status).toBe(200);
  });

  it('from a caller on loopback are answered 401 however many, and never lock local clients out', async () => {
    const port = await adminOn();
    for (let i = 0; i < 30; i++) expect((await adminGet(port, '127.0.0.1', bearer(WRONG))).status).toBe(401);
    expect((await adminGet(port, '127.0.0.1', bearer(TOKEN))).status).toBe(200);
  });

  it('ban a caller for a second first, then twice as long with each ban', async () => {
    const clock = manualClock('2026-06-01T12:00:00Z');
    const server = await serve({ port: 0, onError: () => {}, admin: { token: TOKEN }, now: clock.now, trustProxy: ['127.0.0.3'] });
    running.push(server);
    const port = new URL(server.url).port;
    for (let i = 0; i < 10; i++) expect((await adminGet(port, '127.0.0.3', bearer(WRONG, '198.51.100.9'))).status).toBe(401);
    const first = await adminGet(port, '127.0.0.3', bearer(WRONG, '198.51.100.9'));
    expect([first.status, first.body.message]).toEqual([429, 'Too many wrong admin tokens from this address; banned for 1 more second.']);
    clock.advance(1_000);
    const second = await adminGet(port, '127.0.0.3', bearer(WRONG, '198.51.100.9'));
    expect([second.status, second.body.message]).toEqual([429, 'Too many wrong admin tokens from this address; banned for 2 more seconds.']);
    // Another caller behind the same trusted proxy was never touched.
    expect((await adminGet(port, '127.0.0.3', bearer(TOKEN, OPERATOR))).status).toBe(200);
  });
});

describe('each refusal names the way', () => {
  it('a wrong token is a 401 saying the token is wrong, a missing one a 401 saying the header is needed', async () => {
    const port = await adminOn();
    const missing = await adminGet(port, '127.0.0.1', {});
    const wrong = await adminGet(port, '127.0.0.1', bearer(WRONG));
    expect([missing.status, missing.body.code, wrong.status, wrong.body.code]).toEqual([401, 'unauthorized', 401, 'unauthorized']);
    expect(missing.body.message).toBe('The admin API needs Authorization: Bearer <admin token>.');
    expect(wrong.body.message).toMatch(/^The admin token is wrong/);
  });

  it('an admin path with the admin API off is a JSON 404 saying it is off and how to turn it on', async () => {
    const server = await startServer();
    for (const init of [{}, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }]) {
      const response = await fetch(`${new URL(server.url).origin}/__admin/sandboxes`, init);
      const body = await response.json();
      expect([response.status, body.code, body.status]).toEqual([404, 'not_found', 404]);
      expect(body.message).toMatch(/^The admin API is off: start the command with --admin-token or PETSTORE_ADMIN_TOKEN, or pass the admin option/);
      expect(body.message).toContain('/testing.md#over-http-the-admin-api');
    }
  });
});
