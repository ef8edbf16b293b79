/** A sandbox of a running fake backend, opened, driven and deleted over HTTP through its admin API: what petstore-service/playwright gives each test. */
import {
  type FaultRule,
  type Har,
  type JournalFilter,
  type PendingFault,
  verifyRequests,
  type RecordedExchange,
  type Verification,
  type SandboxKeys,
  type SeedInput,
} from '../controls/index.ts';
import type { Pet } from '../src/index.ts';

/** The command's base path: where the API is below the server's root (the admin API is at the root's `/__admin`). */
const API_BASE = '/v1';

/**
 * Where a test run's fake backend is: `url`, its root (`http://127.0.0.1:8080`) or its API URL as
 * the command prints it (`http://127.0.0.1:8080/v1`), and its admin token.
 *
 * @example
 * const server: PetstoreServer = { url: 'http://127.0.0.1:8080', adminToken: 'my-admin-token-0123' };
 */
export interface PetstoreServer {
  readonly url: string;
  readonly adminToken: string;
  /** What the calls are made with; default the global `fetch`. */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/**
 * The server and admin token from the fixture's options, else from `PETSTORE_URL` and
 * `PETSTORE_ADMIN_TOKEN`; an Error of one line, naming the variable and the option, for each missing.
 *
 * @example
 * const server = petstoreSettings({ petstoreUrl: undefined, petstoreAdminToken: undefined }, process.env);
 */
export function petstoreSettings(
  options: { readonly petstoreUrl?: string | undefined; readonly petstoreAdminToken?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): PetstoreServer {
  const url = options.petstoreUrl || env.PETSTORE_URL;
  const adminToken = options.petstoreAdminToken || env.PETSTORE_ADMIN_TOKEN;
  const unset = (what: string, variable: string, option: string) =>
    `${what}: set ${variable}, or the ${option} option (test.use({ ${option} }) or use in playwright.config)`;
  const missing = [
    ...(url ? [] : [unset('no server to open sandboxes on', 'PETSTORE_URL', 'petstoreUrl')]),
    ...(adminToken ? [] : [unset('no admin token', 'PETSTORE_ADMIN_TOKEN', 'petstoreAdminToken')]),
  ];
  if (!url || !adminToken) throw new Error(`petstore: ${missing.join('; ')}`);
  return { url, adminToken };
}

/**
 * The server's root (where `/__admin` is) and its API URL, from either: a path ending in `/v1` is
 * the API's, anything else the root.
 *
 * @example
 * locatePetstore('http://127.0.0.1:8080/v1'); // { root: 'http://127.0.0.1:8080', api: 'http://127.0.0.1:8080/v1' }
 */
export function locatePetstore(url: string): { root: string; api: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`petstore: PETSTORE_URL (or petstoreUrl) is not a URL: ${JSON.stringify(url)}`);
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  const root = `${parsed.origin}${path.endsWith(API_BASE) ? path.slice(0, -API_BASE.length) : path}`;
  return { root, api: `${root}${API_BASE}` };
}

/**
 * A fault as the admin API takes it: a {@link FaultRule} whose `path` is a string (JSON has no RegExp).
 *
 * @example
 * const rule: RemoteFaultRule = { status: 503, path: '/v1/pets', retryAfterSeconds: 5 };
 */
export type RemoteFaultRule = Omit<FaultRule, 'path'> & { readonly path?: string };

/**
 * A pending fault as the admin API lists it.
 *
 * @example
 * const [first]: RemotePendingFault[] = await petstore.faults.list();
 */
export type RemotePendingFault = Omit<PendingFault, 'path'> & { readonly path?: string };

/**
 * One sandbox of a running fake backend: its keys, the API URL, and its controls, each an admin
 * call. Requests carrying one of its keys live in it alone: pets and ids from 1, quotas, clock,
 * faults and journal. A control the server refuses rejects with an Error quoting its JSON answer.
 *
 * @example
 * await petstore.seed([{ name: 'Rex', categoryId: 1 }]);
 * const response = await fetch(`${petstore.url}/pets`, { headers: { authorization: `Bearer ${petstore.keys.free}` } });
 */
export interface PetstoreSandbox {
  /** Its id, as `GET /__admin/sandboxes` lists it. */
  readonly id: string;
  /** A key per plan: `keys.free` (60 requests a minute), `keys.pro`, `keys.business`. */
  readonly keys: SandboxKeys;
  /** A secret that sends a request with a main-world key here: `Petstore-Sandbox: <selector>`, or `petstore.sandbox=<selector>` in `baggage`. */
  readonly selector: string;
  /** The API's base URL, `http://127.0.0.1:8080/v1`: `${petstore.url}/pets`. */
  readonly url: string;
  /** Stores pets (each like a `POST /pets` body) or `{ generate: { count, seed } }` generated ones; resolves to them with their ids. */
  seed(input: SeedInput): Promise<Pet[]>;
  /** Everything stored, in id order. */
  pets(): Promise<Pet[]>;
  /** Starts its world over: no pets (ids from 1), fresh quotas, no faults, an empty journal. */
  reset(): Promise<void>;
  /** Its clock, which quotas, bans and the sunset date follow; real time until first moved, then still but when moved. Each resolves to the clock's time. */
  readonly clock: {
    advance(ms: number): Promise<Date>;
    set(time: Date | number | string): Promise<Date>;
    now(): Promise<Date>;
  };
  /** Faults for its next requests: `inject` resolves to the rule's id. */
  readonly faults: {
    inject(rule: RemoteFaultRule): Promise<string>;
    /** Removes the rule `id` (`DELETE …/faults/{id}`); rejects when no rule of that id can still apply. */
    remove(id: string): Promise<void>;
    clear(): Promise<void>;
    list(): Promise<RemotePendingFault[]>;
  };
  /** Its journal, oldest first. */
  requests(): Promise<RecordedExchange[]>;
  /** How many requests of its journal `filter` names (`GET …/requests/count`): `await petstore.count({ path: '/v1/pets' })`. */
  count(filter?: JournalFilter): Promise<number>;
  /** Rejects with an Error listing every recorded request unless exactly `times` match (`method`, `path`, `status`). */
  verify(verification: Verification): Promise<void>;
  /** Its journal as HAR 1.2 (`GET …/requests.har`): the exchanges `filter` names, as the test kit's `har()` takes it. */
  har(filter?: JournalFilter): Promise<Har>;
}

/** `filter` as the query of `GET /__admin/…/requests.har` or `…/requests/count` (`?method=GET&since=<ISO date>`), `''` for none. */
function journalQuery({ since, ...rest }: JournalFilter): string {
  const query = new URLSearchParams(Object.entries(rest).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])));
  // A time that is no date goes as it is, for the server's 400 to name.
  if (since !== undefined) query.set('since', Number.isNaN(new Date(since).getTime()) ? String(since) : new Date(since).toISOString());
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Opens a sandbox on `server` (`POST /__admin/sandboxes`); `delete()` deletes it, and is done
 * when it is gone already.
 *
 * @example
 * const sandbox = await openRemoteSandbox({ url: process.env.PETSTORE_URL!, adminToken: process.env.PETSTORE_ADMIN_TOKEN! });
 * try { await sandbox.seed({ generate: { count: 25, seed: 7 } }); } finally { await sandbox.delete(); }
 */
export async function openRemoteSandbox(server: PetstoreServer): Promise<PetstoreSandbox & { delete(): Promise<void> }> {
  const { root, api } = locatePetstore(server.url);
  const send = server.fetch ?? ((input, init) => fetch(input, init));

  /** The admin call `method path` with `body` as JSON: its answer, or an Error naming the call and quoting the answer. */
  async function admin(method: string, path: string, body?: unknown, { also }: { also?: number } = {}): Promise<Response> {
    const url = `${root}/__admin${path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${server.adminToken}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await send(url, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    } catch (error) {
      throw new Error(`petstore: no answer from ${url} (PETSTORE_URL or petstoreUrl): ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.ok || response.status === also) return response;
    throw new Error(`petstore: ${method} ${new URL(url).pathname} answered ${response.status}: ${(await response.text()).trim()}`);
  }
  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> => (await (await admin(method, path, body)).json()) as T;

  const { id, keys, selector } = await json<{ id: string; keys: SandboxKeys; selector: string }>('POST', '/sandboxes', {});
  const own = `/sandboxes/${encodeURIComponent(id)}`;
  const clockTime = async (body?: unknown) => new Date((await json<{ now: string }>(body === undefined ? 'GET' : 'POST', `${own}/clock`, body)).now);
  const requests = () => json<RecordedExchange[]>('GET', `${own}/requests`);
  const done = async (response: Promise<Response>) => void (await response).body?.cancel();

  return {
    id,
    keys,
    selector,
    url: api,
    seed: (input) => json('POST', `${own}/seed`, input),
    pets: () => json('GET', `${own}/pets`),
    reset: () => done(admin('POST', `${own}/reset`)),
    clock: {
      advance: (ms) => clockTime({ advanceMs: ms }),
      // A Date or epoch ms that is no time goes as text, for the server's 400 to name.
      set: (time) => clockTime({ set: typeof time === 'string' || Number.isNaN(new Date(time).getTime()) ? String(time) : new Date(time).toISOString() }),
      now: () => clockTime(),
    },
    faults: {
      inject: async (rule) => (await json<{ id: string }>('POST', `${own}/faults`, rule)).id,
      remove: (id) => done(admin('DELETE', `${own}/faults/${encodeURIComponent(id)}`)),
      clear: () => done(admin('DELETE', `${own}/faults`)),
      list: () => json('GET', `${own}/faults`),
    },
    requests,
    async verify(verification) {
      // JSON has no RegExp: a pattern is matched here, against the whole journal.
      if (verification.path instanceof RegExp) return verifyRequests(await requests(), verification);
      const answer = await admin('POST', `${own}/verify`, verification, { also: 409 });
      const body = (await answer.json()) as { message?: string };
      if (answer.status === 409) throw new Error(body.message);
    },
    count: async (filter = {}) => (await json<{ count: number }>('GET', `${own}/requests/count${journalQuery(filter)}`)).count,
    har: (filter = {}) => json('GET', `${own}/requests.har${journalQuery(filter)}`),
    // Gone already (idle too long) is gone.
    delete: () => done(admin('DELETE', own, undefined, { also: 404 })),
  };
}
