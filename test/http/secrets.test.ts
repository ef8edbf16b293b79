/** API keys never appear in a response, an error message or a log line, whatever the request (the command's output: test/cli/secrets.test.ts). */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { faultyStorage, seededRandom } from '../helpers/faulty-storage.ts';
import { FUZZ_SEED, sayTheSeedOnFailure } from '../helpers/fuzz-seed.ts';
import { startServer } from '../helpers/server.ts';

const KEYS = ['alpha-Secret-Key-0001', 'beta-Secret-Key-0002'];
const PRESENTED = [...KEYS, `${KEYS[0]}x`, KEYS[1]!.slice(0, -1), KEYS[0]!.toUpperCase(), `${KEYS[0]} ${KEYS[1]}`];

/** Everything written to the console or the process's standard streams while a test runs. */
let logged: string[] = [];
beforeEach(() => {
  logged = [];
  const capture = (...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? `${a.stack}` : String(a))).join(' '));
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation(capture);
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => (capture(String(chunk)), true));
  }
});
afterEach(() => vi.restoreAllMocks());

const leaks = (text: string) => KEYS.filter((key) => text.includes(key) || text.includes(encodeURIComponent(key)));

describe('secrets', () => {
  it('no response or log line contains a configured key, across keys, methods, paths and storage failures', async () => {
    sayTheSeedOnFailure();
    const { storage } = faultyStorage(memoryPetStorage(), { rate: 0.3, random: seededRandom(FUZZ_SEED) });
    // The default onError (console.error) stays in place: it is what production logs.
    const petstore = createPetStore({ apiKeys: { [KEYS[0]!]: 'free', [KEYS[1]!]: 'pro' }, storage, banHoldMs: 0 });
    const seen: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PRESENTED),
        fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'DELETE'),
        fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/nope', `/v1/pets/${KEYS[0]}`, `/v1/${KEYS[1]}`, '/v1/openapi.json'),
        fc.constantFrom('{"name":"Rex","categoryId":1}', '{"name":', `{"name":"${KEYS[1]}"}`),
        async (key, method, path, body) => {
          const hasBody = method === 'POST';
          const response = await petstore.fetch(`http://localhost${path}`, {
            method,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: hasBody ? body : undefined,
          });
          const text = await response.text();
          // A client may echo its own key in a pet's name; the API must never add one.
          if (!(hasBody && body.includes(KEYS[1]!) && response.status === 201)) seen.push(text);
          seen.push([...response.headers].join('\n'));
        },
      ),
      { numRuns: 500, seed: FUZZ_SEED },
    );
    expect(logged.some((line) => line.includes('unexpected error'))).toBe(true); // failures were logged
    expect(seen.flatMap(leaks)).toEqual([]);
    expect(logged.flatMap(leaks)).toEqual([]);
  });

  it('option errors and a real server say nothing about keys either', async () => {
    expect(() => createPetStore({ apiKeys: { [`${KEYS[0]} `]: 'free' } })).toThrow(/^(?!.*Secret)/);
    const server = await startServer({ apiKeys: { [KEYS[0]!]: 'free' }, onError: undefined });
    for (const key of PRESENTED) {
      const response = await fetch(`${server.url}/pets`, { headers: { authorization: `Bearer ${key}` } });
      expect(leaks((await response.text()) + [...response.headers].join())).toEqual([]);
    }
    expect(logged.flatMap(leaks)).toEqual([]);
  });
});
