/** Test helpers: a real node:http Pet Store on an ephemeral port, and assertions on Error bodies. */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import { serve, type RunningPetStore, type ServeOptions } from '../../runtimes/node/index.ts';
import { testServerBases } from '../contract/record.ts';

/** The key every test server accepts, on the Enterprise plan so quotas never interfere. */
export const KEY = 'test-key-0123456789';

/** A started server plus a `fetch` that sends {@link KEY} unless told otherwise. */
export interface TestServer extends RunningPetStore {
  /** Fetches `path` (relative to the base URL) with the test key. */
  api(path: string, init?: RequestInit): Promise<Response>;
}

const running: RunningPetStore[] = [];
const ownServers: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
  await Promise.all(ownServers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Listens with a server the test made itself (a framework's, node:http's) on a free port of 127.0.0.1, closed after the test; its origin. */
export async function listenForTest(server: Server): Promise<string> {
  if (!server.listening) await once(server.listen(0, '127.0.0.1'), 'listening');
  ownServers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Starts a server for this test; it is closed after the test. */
export async function startServer(options: ServeOptions = {}): Promise<TestServer> {
  const server = await serve({
    port: 0,
    apiKeys: { [KEY]: { perMinute: 1_000_000, perDay: 1_000_000 } },
    onError: () => {},
    // A ban's 429 at once: a test that holds it (ban-hold.test.ts) says so; others would wait a real second per ban answer.
    banHoldMs: 0,
    ...options,
  });
  running.push(server);
  testServerBases.add(server.url);
  const api = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${KEY}`);
    return fetch(`${server.url}${path}`, { ...init, headers });
  };
  return Object.assign(server, { api });
}

/** POSTs a JSON body to /pets. */
export function postPet(server: TestServer, body: unknown, init: RequestInit = {}): Promise<Response> {
  return server.api('/pets', {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
}

/** Asserts an Error body: JSON media type, the code, and `status` equal to the HTTP status. */
export async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = await response.json();
  expect(body).toMatchObject({ code, status, message: expect.any(String) });
  expect(Object.keys(body).every((key) => ['code', 'message', 'status', 'details'].includes(key))).toBe(true);
  return body as { code: string; message: string; status: number; details?: { field: string; message: string }[] };
}
