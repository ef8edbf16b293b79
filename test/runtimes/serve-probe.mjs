// @ts-check
/** Child of the serve() conformance test: exercises the built package's serve() on this runtime and prints what it saw as one JSON line. */
import { createPetStore } from 'petstore-service';
import { memoryPetStorage } from 'petstore-service/storage';

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';
/** @type {typeof import('petstore-service/node')} */
const adapter = await import(`petstore-service/${runtime}`);
const serve = /** @type {(...args: unknown[]) => Promise<import('petstore-service/node').ListeningPetStore>} */ (adapter.serve);
const KEY = { authorization: 'Bearer probe-key' };
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The port is whatever was free: blanked so runtimes compare equal. */
const shape = (/** @type {string} */ url) => url.replace(/:\d+(?=\/|$)/, ':PORT');
/** Settles within 5 s or says it did not: a close that hangs must fail the test, not stall it. */
async function within5s(/** @type {Promise<unknown>} */ promise) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, 5_000, 'timed out')));
  // Cleared, so a pending timer does not keep this process alive after the answer.
  return Promise.race([promise.then(() => 'resolved'), timeout]).finally(() => clearTimeout(timer));
}
/** True once nothing answers at `url` any more (the connection is refused), polling for up to 2 s. */
async function refused(/** @type {string} */ url) {
  for (let i = 0; i < 40; i++) {
    const answered = await fetch(url).then(
      async (response) => (await response.body?.cancel(), true),
      () => false,
    );
    if (!answered) return true;
    await sleep(50);
  }
  return false;
}
/** The TypeError serve() rejects with, as `TypeError: message`, or what happened instead. */
async function refusal(/** @type {unknown[]} */ ...args) {
  try {
    const server = await serve(...args);
    await server.close();
    return 'accepted';
  } catch (error) {
    return `${/** @type {Error} */ (error).name}: ${/** @type {Error} */ (error).message}`;
  }
}
function setEnv(/** @type {string} */ name, /** @type {string | undefined} */ value) {
  const env =
    'Deno' in globalThis
      ? /** @type {any} */ (globalThis).Deno.env
      : { set: (/** @type {string} */ n, /** @type {string} */ v) => (process.env[n] = v), delete: (/** @type {string} */ n) => delete process.env[n] };
  if (value === undefined) env.delete(name);
  else env.set(name, value);
}

const seen = /** @type {Record<string, unknown>} */ ({});
if (process.argv.includes('--without-env-permission')) {
  // Deno without --allow-env: serve() must start anyway, with no keys.
  const server = await serve({ port: 0 });
  seen.url = shape(server.url);
  seen.withoutKeys = (await fetch(`${server.url}/pets`, { headers: KEY })).status;
  seen.close = await within5s(server.close());
} else {
  // A store made from options: keys from PETSTORE_API_KEYS, URL with its base path.
  const inner = memoryPetStorage();
  const storage = { ...inner, list: /** @type {typeof inner.list} */ (async (query) => (await sleep(300), inner.list(query))) };
  const server = await serve({ port: 0, basePath: '/api', storage });
  seen.url = shape(server.url);
  seen.withEnvKey = (await fetch(`${server.url}/openapi.json`, { headers: KEY })).status;
  seen.withoutKey = (await fetch(`${server.url}/pets/1`)).status;
  // close() waits for the request in flight, resolves, and is the same promise every time.
  const inFlight = fetch(`${server.url}/pets`, { headers: KEY }).then((r) => r.status);
  await sleep(100);
  const closeStart = Date.now();
  const closing = server.close();
  seen.closeIsIdempotent = server.close() === closing && server[Symbol.asyncDispose]() === closing;
  seen.close = await within5s(closing);
  // The list takes 300 ms and began 100 ms before close(): resolving sooner would mean it did not wait.
  seen.closeWaitedForInFlight = Date.now() - closeStart >= 150;
  seen.inFlightStatus = await inFlight;
  seen.refusedAfterClose = await refused(`${server.url}/openapi.json`);

  // An existing handler, its own base path, stopped by its signal.
  const controller = new AbortController();
  const handler = createPetStore({ basePath: '/h', apiKeys: { 'handler-key': 'free' } });
  const served = await serve(handler, { port: 0, hostname: '127.0.0.1', signal: controller.signal });
  seen.handlerUrl = shape(served.url);
  seen.handlerStatus = (await fetch(`${served.url}/pets`, { headers: { authorization: 'Bearer handler-key' } })).status;
  controller.abort();
  seen.refusedAfterAbort = await refused(`${served.url}/openapi.json`);
  seen.closeAfterAbort = await within5s(served.close());

  seen.unknownOption = await refusal({ port: 0, prot: 8080 });
  seen.storeOptionWithHandler = await refusal(handler, { port: 0, apiKeys: { k: 'free' } });
  seen.handlerInOptions = await refusal({ port: 0, handler });
  seen.nodeOnlyOption = await refusal({ port: 0, shutdownTimeoutMs: 1_000 });
  seen.abortedSignal = (await refusal({ port: 0, signal: AbortSignal.abort() })).split(':')[0];
  const original = process.env.PETSTORE_API_KEYS;
  setEnv('PETSTORE_API_KEYS', 'topsecret:gold');
  seen.badEnv = await refusal({ port: 0 });
  seen.explicitKeysOverBadEnv = await refusal({ port: 0, apiKeys: { k: 'free' } });
  setEnv('PETSTORE_API_KEYS', original);
}
console.log(JSON.stringify({ runtime, seen }));
