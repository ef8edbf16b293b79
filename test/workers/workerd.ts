/**
 * The Workers stores running inside a local workerd (through Miniflare), each method call one HTTP
 * request from the test: a real D1 database and real PetStoreLimits Durable Objects, used by the
 * same code a deployed Worker runs. (Miniflare's own bindings proxy is not used: under 1,000
 * concurrent calls it took 10 s and dropped a call with "other side closed".)
 */
import { request } from 'node:http';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { WORKERD_BUILD } from '../../examples/mount/workers/workerd-build.mjs';
import { dashboardEsbuildPlugin } from '../../scripts/dashboard-assets.ts';
import type { LimitStore, PetStorage } from '../../src/index.ts';

/**
 * petStoreWorker as a fake backend, its PETSTORE_FAKE namespace watched: `GET /__test/objects`
 * lists the object names it was asked for. `withLimits` also exports PetStoreLimits, for a Worker
 * whose setup binds it (one over D1).
 */
export const watchedFakeBackend = ({ withLimits = false } = {}) => `
import { petStoreWorker } from './runtimes/workers/index.ts';
${withLimits ? "export { PetStoreLimits } from './runtimes/workers/index.ts';\n" : ''}const petstore = petStoreWorker();
export const { PetStoreFake } = petstore;
const names = new Set();
let watched;
export default {
  fetch(request, env) {
    if (new URL(request.url).pathname === '/__test/objects') return Response.json([...names]);
    const fake = env.PETSTORE_FAKE;
    watched ??= { ...env, PETSTORE_FAKE: { idFromName: (name) => (names.add(name), fake.idFromName(name)), get: (id) => fake.get(id) } };
    return petstore.fetch(request, watched);
  },
};`;

/** The worker the tests call: `/pets/<method>` and `/limits/<method>?prefix=` run a store's method on the JSON array of arguments. */
const TEST_WORKER = `
import { d1PetStorage, durableObjectLimitStore, migrateD1 } from './runtimes/workers/index.ts';
export { PetStoreLimits } from './runtimes/workers/index.ts';
export default {
  async fetch(request, env) {
    const { pathname, searchParams } = new URL(request.url);
    const args = await request.json();
    try {
      if (pathname === '/migrate') return Response.json({ value: await migrateD1(env.PETSTORE_DB) ?? null });
      if (pathname === '/query') return Response.json({ value: (await env.PETSTORE_DB.prepare(args[0]).all()).results });
      const [kind, method] = pathname.slice(1).split('/');
      const store = kind === 'pets' ? d1PetStorage(env.PETSTORE_DB) : durableObjectLimitStore(env.PETSTORE_LIMITS, { prefix: searchParams.get('prefix') });
      const value = await store[method](...args);
      return Response.json(value === undefined ? {} : { value });
    } catch (error) {
      return Response.json({ error: String(error) }, { status: 500 });
    }
  },
};`;

export interface LocalWorkerd {
  /** A d1PetStorage over the D1 database, running in workerd. */
  readonly storage: PetStorage;
  /** A durableObjectLimitStore whose object names start with `prefix`, running in workerd. */
  limitStore(prefix: string): LimitStore;
  /** migrateD1 of the database, run in workerd. */
  migrate(): Promise<void>;
  /** One SQL statement on the database; its rows. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  dispose(): Promise<void>;
}

/** `contents` (TypeScript, imports resolved from the repository root) as one ES module for workerd, bundled as wrangler does. */
export async function bundle(contents: string): Promise<string> {
  // The admin API's dashboard bundled as the package's build bundles it (scripts/dashboard-assets.ts).
  const { outputFiles } = await build({ ...WORKERD_BUILD, plugins: [dashboardEsbuildPlugin()], stdin: { contents, resolveDir: process.cwd(), loader: 'ts' } });
  return outputFiles[0]!.text;
}

/**
 * POSTs `body` on a connection of its own and resolves to the answer's text. Not fetch: its pool
 * reuses idle connections, and one workerd has just closed fails the call with ECONNRESET (seen
 * under the flood of 2,000 subjects).
 */
function post(url: URL, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(text));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * How many calls the test keeps in flight; the rest wait their turn here, not in workerd's accept
 * queue. workerd (KJ's HTTP server) ends a connection whose request it has not read within 15 s
 * with no answer, so the conformance flood's 500 calls at once, each to a Durable Object it had to
 * create, got "socket hang up" for about 200 of them: connected at 0.25 s, closed by workerd at
 * 15.5 s, while it took 14 s to answer the median one. 32 at a time is still many in flight.
 */
const MAX_IN_FLIGHT = 32;

/** Runs `work` once fewer than {@link MAX_IN_FLIGHT} others are running. */
function queue(): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      // The turn passes straight to the next caller, so `running` never drops and rises again in between.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/** What a Worker script is started with: its bindings, each Durable Object binding's class, its D1 databases. */
export interface WorkerSetup {
  readonly bindings?: Record<string, string>;
  /** Binding name to class name; every object on SQLite, as wrangler.toml declares them. */
  readonly durableObjects?: Record<string, string>;
  readonly d1Databases?: Record<string, string>;
  /** Sees the Worker's stdout and stderr, chunk by chunk. */
  readonly log?: (text: string) => void;
}

/**
 * `source` (TypeScript, imports resolved from the repository root) bundled as wrangler does and
 * run on local workerd; resolves to its URL and how to stop it.
 *
 * @example
 * const worker = await startWorker(WORKER, { bindings: { PETSTORE_API_KEYS: 'k:free' }, durableObjects: { PETSTORE_FAKE: 'PetStoreFake' } });
 */
export async function startWorker(source: string, setup: WorkerSetup = {}): Promise<{ readonly origin: URL; dispose(): Promise<void> }> {
  const { bindings, durableObjects = {}, d1Databases, log } = setup;
  const miniflare = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.js', contents: await bundle(source) }],
    compatibilityDate: '2025-07-01',
    cf: false,
    ...(bindings && { bindings }),
    ...(d1Databases && { d1Databases }),
    durableObjects: Object.fromEntries(Object.entries(durableObjects).map(([name, className]) => [name, { className, useSQLite: true }])),
    ...(log && {
      handleRuntimeStdio: (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => {
        for (const stream of [stdout, stderr]) stream.on('data', (chunk: Buffer) => log(String(chunk)));
      },
    }),
  });
  return { origin: await miniflare.ready, dispose: () => miniflare.dispose() };
}

/** Starts workerd with the stores' bindings, state in memory. */
export async function startLocalWorkerd(): Promise<LocalWorkerd> {
  const miniflare = new Miniflare({
    modules: [{ type: 'ESModule', path: 'test-worker.js', contents: await bundle(TEST_WORKER) }],
    compatibilityDate: '2025-07-01',
    cf: false,
    d1Databases: { PETSTORE_DB: 'test' },
    durableObjects: { PETSTORE_LIMITS: { className: 'PetStoreLimits', useSQLite: true } },
  });
  const url = await miniflare.ready;
  const inTurn = queue();
  async function call(path: string, args: unknown[]): Promise<never> {
    const text = await inTurn(() => post(new URL(path, url), JSON.stringify(args)));
    const body = JSON.parse(text) as { value?: never; error?: string };
    if (body.error !== undefined) throw new Error(body.error);
    return body.value as never;
  }
  const methods = <T>(path: string, names: readonly (keyof T)[]) =>
    Object.fromEntries(names.map((name) => [name, (...args: unknown[]) => call(`${path.replace('%', String(name))}`, args)])) as T;
  return {
    storage: methods<PetStorage>('/pets/%', ['create', 'createOnce', 'get', 'list']),
    limitStore: (prefix) => methods<LimitStore>(`/limits/%?prefix=${encodeURIComponent(prefix)}`, ['take', 'reject', 'ban']),
    migrate: () => call('/migrate', []),
    query: (sql) => call('/query', [sql]),
    dispose: () => miniflare.dispose(),
  };
}
