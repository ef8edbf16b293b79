/**
 * A real node:http server with the admin API on, for the admin suites. Every admin response a test
 * receives is checked, after the test, against the admin document the same server serves.
 */
import { afterEach, expect } from 'vitest';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { createContractChecker, type Exchange } from '../contract/checker.ts';
import { KEY, type TestServer } from './server.ts';

/** The admin token of every admin server. */
export const TOKEN = 'admin-token-0123456789';
/** A key on the free plan. */
export const FREE = 'free-key-0123456789';

/** A running admin server and the admin responses its test received, with their bodies read. */
const servers: { running: RunningPetStore; exchanges: Promise<Exchange | undefined>[] }[] = [];
afterEach(async () => {
  const started = servers.splice(0);
  try {
    for (const { running, exchanges } of started) {
      const document = await (await fetch(`${new URL(running.url).origin}/__admin/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
      const check = createContractChecker(document);
      const problems = (await Promise.all(exchanges)).flatMap((exchange) => (exchange ? check(exchange) : []));
      expect(problems, 'admin responses that break the served admin document').toEqual([]);
    }
  } finally {
    await Promise.all(started.map(({ running }) => running.close()));
  }
});

/**
 * A server with the admin API on, `api` as the test servers have it, `admin(path)` a fetch of
 * `/__admin<path>` with the token and `adminWithout(path)` one without it. Not one of the
 * contract-checked test servers: the faults it injects answer outside the API's document on purpose.
 *
 * @example
 * const server = await adminServer();
 * await server.admin('/clock', json({ advanceMs: 60_000 }));
 */
export async function adminServer(options: { maxBodyBytes?: number; cors?: readonly string[] } = {}) {
  const running = await serve({
    port: 0,
    onError: () => {},
    admin: { token: TOKEN },
    apiKeys: { [FREE]: 'free', [KEY]: { perMinute: 1_000_000, perDay: 1_000_000 } },
    ...options,
  });
  const exchanges: Promise<Exchange | undefined>[] = [];
  servers.push({ running, exchanges });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${running.url}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, ...(init.headers as Record<string, string>) } });
  const server: TestServer = Object.assign(running, { api });
  const origin = new URL(server.url).origin;
  const adminWithout = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${origin}/__admin${path}`, init);
    const { status, headers } = response;
    const method = init.method ?? 'GET';
    exchanges.push(
      response
        .clone()
        .text()
        .then(
          (body) => ({ method, path: `/__admin${path}`, status, headers, body }),
          () => undefined,
        ),
    );
    return response;
  };
  const admin = (path: string, init: RequestInit = {}) =>
    adminWithout(path, {
      ...init,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    });
  return Object.assign(server, { admin, adminWithout });
}

/** A POST with `body` as JSON. */
export const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });
