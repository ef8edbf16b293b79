/** One serve() everywhere: the built package's serve() on Node 20, Node 24, Deno and Bun, each a real process, must see the same things. */
import { describe, expect, it } from 'vitest';
import { bunBinary, denoBinary, node24Binary, runJsonProcess } from './processes.ts';

const PROBE = 'test/runtimes/serve-probe.mjs';
const env = { PETSTORE_API_KEYS: 'probe-key:free' };
// Installed on first use (scripts/runtime.mjs): here, before any test's timeout starts.
const [node24, deno, bun] = await Promise.all([node24Binary(), denoBinary(), bunBinary()]);

/** What the probe sees on every runtime; only where Node's own options are accepted differs. */
function expected(runtime: string, nodeOnlyOption: string) {
  return {
    runtime,
    seen: {
      url: 'http://127.0.0.1:PORT/api',
      withEnvKey: 200,
      withoutKey: 401,
      closeIsIdempotent: true,
      close: 'resolved',
      closeWaitedForInFlight: true,
      inFlightStatus: 200,
      refusedAfterClose: true,
      handlerUrl: 'http://127.0.0.1:PORT/h',
      handlerStatus: 200,
      refusedAfterAbort: true,
      closeAfterAbort: 'resolved',
      closeWithEventStream: 'resolved',
      eventStreamEnded: 'ended',
      unknownOption: expect.stringMatching(/^TypeError: serve: unknown option "prot" \(did you mean "port"\?\); the options are .*\bport, hostname, signal\b/),
      storeOptionWithHandler: expect.stringMatching(/^TypeError: serve: "apiKeys" is a store option/),
      handlerInOptions: expect.stringMatching(/^TypeError: serve: a handler is not an option; pass it first/),
      nodeOnlyOption,
      abortedSignal: 'AbortError',
      // Names the variable and the entry, never the key (`topsecret`).
      badEnv: expect.stringMatching(/^(?![\s\S]*topsecret)TypeError: serve: PETSTORE_API_KEYS: API key entry 1: an unknown plan; plans: free, pro, business/),
      explicitKeysOverBadEnv: 'accepted',
    },
  };
}

const NODE_ONLY = expect.stringMatching(/^TypeError: serve: option "shutdownTimeoutMs" exists only on petstore-service\/node/);

describe('serve() behaves the same on every runtime', () => {
  it(`on Node ${process.version}: URL with the base path, close() waits and resolves, signal closes, PETSTORE_API_KEYS read, unknown options refused`, async () => {
    expect(await runJsonProcess(process.execPath, [PROBE], env)).toEqual(expected('node', 'accepted'));
  });

  it('on Node 24: the same', async () => {
    expect(await runJsonProcess(node24, [PROBE], env)).toEqual(expected('node', 'accepted'));
  }, 300_000);

  it("on Deno: the same, and Node's own options are a TypeError naming the option", async () => {
    const args = ['run', '--allow-net', '--allow-env', '--allow-read', PROBE];
    expect(await runJsonProcess(deno, args, env)).toEqual(expected('deno', NODE_ONLY));
  });

  it("on Bun: the same, and Node's own options are a TypeError naming the option", async () => {
    expect(await runJsonProcess(bun, [PROBE], env)).toEqual(expected('bun', NODE_ONLY));
  });

  it('on Deno without --allow-env: starts with no keys instead of throwing or prompting', async () => {
    const args = ['run', '--allow-net', '--allow-read', PROBE, '--without-env-permission'];
    expect(await runJsonProcess(deno, args, env)).toEqual({
      runtime: 'deno',
      seen: { url: 'http://127.0.0.1:PORT/v1', withoutKeys: 401, close: 'resolved' },
    });
  });
});
