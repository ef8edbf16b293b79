/**
 * The command's demo faults look like the real thing: an answer `--fail-rate` injects carries the
 * headers the command's real answer to the same request carries (quota, deprecation) and says its
 * reason phrase, read on a raw socket from the built command.
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { rawConnect, requestHead, type RawResponse } from '../helpers/raw-http.ts';

const KEY = 'cli-fault-key-0123456789';

/** The command with `args`, its base URL once it prints it. */
async function command(args: string[]): Promise<string> {
  const cli = runCli(['--port', '0', '--quiet', '--key', `${KEY}:pro`, ...args]);
  while (!/listening on (\S+)/.test(cli.stdout())) await once(cli.child.stdout!, 'data');
  return /listening on (\S+)/.exec(cli.stdout())![1]!;
}

/** One request per operation, each answered by the operation itself when no fault is injected. */
const REQUESTS: readonly [string, string, string, string?][] = [
  ['listPets (a page)', 'GET', '/pets'],
  ['listPets (a refused query)', 'GET', '/pets?limit=0'],
  ['createPet (an invalid pet)', 'POST', '/pets', '{}'],
  ['getPetById (not found)', 'GET', '/pets/1'],
  ['the OpenAPI document', 'GET', '/openapi.json'],
];

/** Sends `method path` (under the base of `url`) on a fresh connection and reads the one raw response. */
async function rawRequest(url: string, method: string, path: string, body?: string): Promise<RawResponse> {
  const { host, pathname } = new URL(url);
  const connection = await rawConnect(url);
  const lines = [`${method} ${pathname}${path} HTTP/1.1`, `Host: ${host}`, `Authorization: Bearer ${KEY}`, 'Connection: close'];
  if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  connection.write(requestHead(lines) + (body ?? ''));
  return (await connection.untilClosed())[0]!;
}

/** Header names a client can compare: what framing and the connection add aside. */
function comparableNames(names: Iterable<string>): string[] {
  const framing = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);
  return [...new Set(names)].filter((name) => !framing.has(name)).sort();
}

describe('petstore-service --fail-rate 1', () => {
  it('answers GET /v1/pets/{id} "HTTP/1.1 503 Service Unavailable" with Deprecation, Sunset, the successor Link and the quota headers', async () => {
    const url = await command(['--fail-rate', '1']);
    const response = await rawRequest(url, 'GET', '/pets/1');
    expect([response.status, response.reason]).toEqual([503, 'Service Unavailable']);
    expect(response.headers.deprecation).toMatch(/^@\d+$/);
    expect(response.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(response.headers.link).toMatch(/rel="successor-version"/);
    expect(response.headers['x-ratelimit-limit']).toBe('300');
    expect(response.headers['x-ratelimit-remaining']).toBe('299');
    for (const name of ['x-ratelimit-reset', 'ratelimit', 'ratelimit-policy', 'retry-after'])
      expect([name, response.headers[name]]).toEqual([name, expect.any(String)]);
  });

  it('answers every operation with the header names of the real answer to the same request, and Retry-After', async () => {
    const [real, faulty] = await Promise.all([command([]), command(['--fail-rate', '1'])]);
    for (const [operation, method, path, body] of REQUESTS) {
      const [expected, injected] = await Promise.all([rawRequest(real, method, path, body), rawRequest(faulty, method, path, body)]);
      expect([operation, injected.status, injected.reason]).toEqual([operation, 503, 'Service Unavailable']);
      expect([operation, comparableNames(Object.keys(injected.headers))]).toEqual([
        operation,
        comparableNames([...Object.keys(expected.headers), 'retry-after']),
      ]);
    }
  });
});
