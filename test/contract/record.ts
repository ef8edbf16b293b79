/** Vitest setup: every fetch a suite makes to a test server is checked against the served OpenAPI document. */
import { afterEach, expect } from 'vitest';
import { contractCheckerFor, type Exchange } from './checker.ts';

/** Base URLs (origin + base path) of the servers tests started; only their responses are checked. */
export const testServerBases = new Set<string>();

const recorded: Promise<(Exchange & { basePath: string }) | undefined>[] = [];
const realFetch = globalThis.fetch;

globalThis.fetch = async function recordingFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = input instanceof Request ? input.url : String(input);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const response = await realFetch(input, init);
  const base = [...testServerBases].find((b) => url === b || url.startsWith(`${b}/`) || url.startsWith(`${b}?`));
  if (base) {
    const copy = response.clone();
    recorded.push(
      copy.text().then(
        (body) => ({
          basePath: new URL(base).pathname,
          method,
          path: url.slice(base.length) || '/',
          status: copy.status,
          headers: copy.headers,
          body,
        }),
        () => undefined, // the test aborted the body on purpose
      ),
    );
  }
  return response;
};

afterEach(async () => {
  const exchanges = (await Promise.all(recorded.splice(0))).filter((e) => e !== undefined);
  const problems: string[] = [];
  for (const exchange of exchanges) {
    // CORS preflights are browser machinery, not API operations.
    if (exchange.method === 'OPTIONS' && exchange.headers.has('access-control-allow-methods')) continue;
    problems.push(...(await contractCheckerFor(exchange.basePath))(exchange));
  }
  expect(problems, 'responses that break the served OpenAPI document').toEqual([]);
});
