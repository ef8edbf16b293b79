/**
 * User code gets a Request whichever way a request came in: a `clientAddress` option that reads
 * the request as any Request is read (iterating its headers, its URL, its methods) works on the
 * direct node:http path, through the @whatwg-node bridge (hooks on), and in process, from a URL
 * and init or from a Request.
 */
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import type { PetStoreOptions } from '../../src/index.ts';
import { startServer } from '../helpers/server.ts';

/** What a callback could read of the request it was handed, as plain data. */
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly requestMethods: boolean;
  readonly signal: boolean;
}

/** A `clientAddress` option that reads its request as a Request, and what it saw each time. */
function readingCallback() {
  const seen: Seen[] = [];
  const clientAddress: NonNullable<PetStoreOptions['clientAddress']> = (request) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers) headers[name] = value;
    seen.push({
      method: request.method,
      url: request.url,
      headers: Object.fromEntries([...request.headers]),
      requestMethods: (['clone', 'arrayBuffer', 'json', 'text'] as const).every((name) => typeof request[name] === 'function'),
      signal: request.signal instanceof AbortSignal,
    });
    return headers['x-real-ip'];
  };
  return { seen, clientAddress };
}

/** What each request below sends: no key, so the limits step asks the callback for the caller's address. */
const sent: [string, string, RequestInit][] = [
  ['a GET', 'GET', { headers: { 'x-real-ip': '203.0.113.9', 'x-trace': 'one' } }],
  [
    'a POST with a body',
    'POST',
    { method: 'POST', headers: { 'x-real-ip': '203.0.113.9', 'x-trace': 'one', 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' },
  ],
];

/** The answer a keyless caller gets, and what the callback saw of its request. */
async function expectRequestSeen(response: Response, seen: readonly Seen[], method: string, url: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull();
  // Asked by the limits step, and again for onResponse's `clientAddress` when the hook is on.
  expect(seen.length).toBeGreaterThan(0);
  for (const request of seen) {
    expect(request).toMatchObject({ method, url, requestMethods: true, signal: true });
    expect(request.headers).toMatchObject({ 'x-real-ip': '203.0.113.9', 'x-trace': 'one' });
  }
}

describe('a clientAddress callback reads a Request', () => {
  describe.each([
    ['on the direct node:http path', {}],
    ['through the @whatwg-node bridge (hooks on)', { onResponse: () => {} }],
  ])('%s', (_path, hooks) => {
    it.each(sent)('for %s', async (_name, method, init) => {
      const { seen, clientAddress } = readingCallback();
      const server = await startServer({ clientAddress, ...hooks });
      const response = await fetch(`${server.url}/pets`, init);
      await expectRequestSeen(response, seen, method, `${server.url}/pets`);
    });
  });

  describe.each([
    ['in process, from a URL and init', false, {}],
    ['in process, from a URL and init, hooks on', false, { onRequest: () => {} }],
    ['in process, from a Request', true, {}],
  ])('%s', (_path, asRequest, hooks) => {
    it.each(sent)('for %s', async (_name, method, init) => {
      const { seen, clientAddress } = readingCallback();
      const petstore = createPetStore({ clientAddress, onError: () => {}, ...hooks });
      const url = 'http://localhost/v1/pets';
      const response = await (asRequest ? petstore.fetch(new Request(url, init)) : petstore.fetch(url, init));
      await expectRequestSeen(response, seen, method, url);
    });
  });
});
