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
/** Settles within 15 s or says it did not: a close that hangs must fail the test, not stall it (15 s: room for a busy machine). */
async function settles(/** @type {Promise<unknown>} */ promise) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, 15_000, 'timed out')));
  // Cleared, so a pending timer does not keep this process alive after the answer.
  return Promise.race([promise.then(() => 'resolved'), timeout]).finally(() => clearTimeout(timer));
}
/** True once nothing answers at `url` any more (the connection is refused), asking every 50 ms for up to 15 s. */
async function refused(/** @type {string} */ url) {
  for (let i = 0; i < 300; i++) {
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
  seen.close = await settles(server.close());
} else {
  // A store made from options: keys from PETSTORE_API_KEYS, URL with its base path. Its list is held
  // until released, so the probe knows a request is in flight without timing anything.
  const inner = memoryPetStorage();
  /** @type {() => void} */
  let entered = () => {};
  const listing = new Promise((resolve) => (entered = () => resolve(undefined)));
  /** @type {() => void} */
  let release = () => {};
  const gate = new Promise((resolve) => (release = () => resolve(undefined)));
  const storage = { ...inner, list: /** @type {typeof inner.list} */ (async (query) => (entered(), await gate, inner.list(query))) };
  const server = await serve({ port: 0, basePath: '/api', storage });
  seen.url = shape(server.url);
  seen.withEnvKey = (await fetch(`${server.url}/openapi.json`, { headers: KEY })).status;
  seen.withoutKey = (await fetch(`${server.url}/pets/1`)).status;
  // close() refuses new connections, waits for the request in flight, resolves, and is the same promise every time.
  const inFlight = fetch(`${server.url}/pets`, { headers: KEY }).then(
    (r) => r.status,
    (error) => `failed: ${error.message}`,
  );
  await listing;
  const closing = server.close();
  let closed = false;
  closing.then(() => (closed = true));
  seen.closeIsIdempotent = server.close() === closing && server[Symbol.asyncDispose]() === closing;
  seen.refusedAfterClose = await refused(`${server.url}/openapi.json`);
  // The request is still held: a close() that had resolved by now would not have waited for it.
  seen.closeWaitedForInFlight = !closed;
  release();
  seen.inFlightStatus = await inFlight;
  seen.close = await settles(closing);

  // An existing handler, its own base path, stopped by its signal.
  const controller = new AbortController();
  const handler = createPetStore({ basePath: '/h', apiKeys: { 'handler-key': 'free' } });
  const served = await serve(handler, { port: 0, hostname: '127.0.0.1', signal: controller.signal });
  seen.handlerUrl = shape(served.url);
  seen.handlerStatus = (await fetch(`${served.url}/pets`, { headers: { authorization: 'Bearer handler-key' } })).status;
  controller.abort();
  seen.refusedAfterAbort = await refused(`${served.url}/openapi.json`);
  seen.closeAfterAbort = await settles(served.close());

  // A dashboard's event stream never ends by itself: close() ends it rather than wait for it.
  const ADMIN = 'probe-admin-token-0123456789';
  const watched = await serve(createPetStore({ apiKeys: { 'probe-key': 'free' }, admin: { token: ADMIN } }), { port: 0, hostname: '127.0.0.1' });
  const stream = await fetch(`${new URL(watched.url).origin}/__admin/requests/events`, { headers: { authorization: `Bearer ${ADMIN}` } });
  const events = /** @type {ReadableStream<Uint8Array>} */ (stream.body).getReader();
  await events.read();
  seen.closeWithEventStream = await settles(watched.close());
  seen.eventStreamEnded = await events.read().then(
    ({ done }) => (done ? 'ended' : 'still sending'),
    () => 'ended',
  );

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
