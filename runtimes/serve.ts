/** The one serve() every runtime adapter shares: its options, its result, and how its arguments are read. */
import { assertKnownOptions, parseApiKeys, PET_STORE_OPTION_NAMES, type PetStoreOptions, type Plan } from '../src/index.ts';
import { createPetStore } from '../compose/create-pet-store.ts';
import type { PetStoreHandler } from '../compose/handler.ts';

/** Where and how `serve` listens: the same options on Node, Deno and Bun. */
export interface ListenOptions {
  /** TCP port; `0` picks a free one (read it from `url`). Default 8080. */
  readonly port?: number;
  /** Interface to bind: `0.0.0.0` or `::` for every one. Default `127.0.0.1`, so nothing is exposed by accident. */
  readonly hostname?: string;
  /** Aborting it closes the server, as `close()` does. An already aborted signal makes `serve` reject. */
  readonly signal?: AbortSignal;
}

/**
 * Options of `serve(options)`: the store's own options ({@link PetStoreOptions}) plus where to
 * listen. Without `apiKeys`, the keys come from the `PETSTORE_API_KEYS` environment variable
 * (`key:plan,…`, as {@link parseApiKeys} reads it; on Deno only when `--allow-env` grants it);
 * with neither, every operation answers 401.
 */
export type ServeOptions<Listen extends ListenOptions = ListenOptions> = PetStoreOptions & Listen;

/** A Pet Store listening on a port. `await using` closes it. */
export interface ListeningPetStore extends AsyncDisposable {
  /** Base URL of the API: the origin plus the handler's `basePath`, e.g. `http://127.0.0.1:8080/v1`. */
  readonly url: string;
  /** The fetch handler the server runs. */
  readonly petstore: PetStoreHandler;
  /**
   * Stops accepting connections, lets in-flight requests finish, then resolves. Calling it again
   * (or disposing, or aborting `signal`) returns the same promise.
   */
  close(): Promise<void>;
}

/**
 * `serve` of `petstore-service/node`, `/deno` and `/bun`: the same two forms everywhere. Options
 * are checked before anything listens; an unknown name is a `TypeError` naming it and the known
 * ones.
 *
 * @example
 * // A store made from options, keys from PETSTORE_API_KEYS:
 * await using server = await serve({ port: 0, basePath: '/api' });
 * await fetch(`${server.url}/pets`); // http://127.0.0.1:<port>/api/pets
 * // A handler you already have (a test store, one behind faults), stopped by a signal:
 * const controller = new AbortController();
 * await serve(createTestPetStore(), { port: 0, signal: controller.signal });
 * controller.abort(); // closes it
 */
export interface Serve<Listen extends ListenOptions = ListenOptions, Listening extends ListeningPetStore = ListeningPetStore> {
  /** Makes a store from the store options in `options` and serves it. */
  (options?: ServeOptions<Listen>): Promise<Listening>;
  /** Serves an existing handler; `listenOptions` may hold listen options only. `close()` leaves the handler undisposed. */
  (handler: PetStoreHandler, listenOptions?: Listen): Promise<Listening>;
}

/** The listen options every runtime takes. */
export const LISTEN_OPTION_NAMES: readonly string[] = ['port', 'hostname', 'signal'];

/** Listen options only `petstore-service/node` has: deadlines and signal handling built on node:http. */
export const NODE_ONLY_OPTION_NAMES: readonly string[] = ['handleSignals', 'shutdownTimeoutMs', 'headersTimeoutMs', 'requestTimeoutMs', 'keepAliveTimeoutMs'];

/** The environment variable `serve` reads keys from when `apiKeys` is not given. */
const API_KEYS_VARIABLE = 'PETSTORE_API_KEYS';

/** What an adapter tells {@link readServeArguments} about its runtime. */
interface ServeRuntime {
  /** The listen option names this runtime takes, {@link LISTEN_OPTION_NAMES} included. */
  readonly listenOptionNames: readonly string[];
  /** Reads an environment variable, or `undefined` when unset or not permitted. */
  env(name: string): string | undefined;
}

/** What `serve`'s arguments ask for, checked: the handler, where to listen, and who owns the handler. */
interface ServePlan<Listen extends ListenOptions> {
  readonly petstore: PetStoreHandler;
  /** True when serve made the store, so closing the server disposes it; a handler passed in stays the caller's. */
  readonly owned: boolean;
  readonly port: number;
  readonly hostname: string;
  readonly signal: AbortSignal | undefined;
  /** The listen options as given, for the runtime's own ones. */
  readonly listen: Listen;
}

/**
 * Reads either form of `serve`'s arguments and throws a `TypeError` for anything that cannot
 * work, before a port is taken. For adapters.
 *
 * @example
 * const plan = readServeArguments([{ port: 0 }], { listenOptionNames: LISTEN_OPTION_NAMES, env: () => undefined });
 * plan.port; // 0
 */
export function readServeArguments<Listen extends ListenOptions>(args: readonly unknown[], runtime: ServeRuntime): ServePlan<Listen> {
  const [first = {}, second] = args;
  const handlerForm = typeof first === 'function';
  if (!handlerForm && args.length > 1) {
    throw new TypeError('serve: takes serve(options) or serve(handler, listenOptions), never options and then more');
  }
  const listen = (handlerForm ? (second ?? {}) : first) as Listen & Record<string, unknown>;
  const known = handlerForm ? runtime.listenOptionNames : [...PET_STORE_OPTION_NAMES, ...runtime.listenOptionNames];
  assertHintedOptions(listen, known, handlerForm);
  assertKnownOptions(listen, known, 'serve');
  const { port = 8080, hostname = '127.0.0.1', signal } = listen;
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535) throw new TypeError('serve: port must be an integer from 0 to 65535');
  if (typeof hostname !== 'string' || hostname.trim() === '') throw new TypeError('serve: hostname must be a non-empty string');
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError('serve: signal must be an AbortSignal');
  signal?.throwIfAborted();
  if (handlerForm) return { petstore: first as PetStoreHandler, owned: false, port, hostname, signal, listen };
  const storeOptions: Record<string, unknown> = {};
  for (const name of PET_STORE_OPTION_NAMES) if (name in listen) storeOptions[name] = listen[name];
  storeOptions.apiKeys ??= apiKeysFromEnv(runtime);
  return { petstore: createPetStore(storeOptions as PetStoreOptions), owned: true, port, hostname, signal, listen };
}

/** Plainer messages for the mistakes people make most: old names, a handler in the options, Node's options elsewhere. */
function assertHintedOptions(options: object, known: readonly string[], handlerForm: boolean): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    if (name === 'host') throw new TypeError('serve: unknown option "host"; the interface option is "hostname"');
    if (name === 'handler') throw new TypeError('serve: a handler is not an option; pass it first, serve(handler, { port })');
    if (NODE_ONLY_OPTION_NAMES.includes(name)) {
      throw new TypeError(`serve: option "${name}" exists only on petstore-service/node; the options here are ${known.join(', ')}`);
    }
    if (handlerForm && PET_STORE_OPTION_NAMES.includes(name)) {
      throw new TypeError(`serve: "${name}" is a store option, and the handler is already made; pass it to createPetStore`);
    }
  }
}

/** The keys in PETSTORE_API_KEYS, or none. A malformed value names the variable and the entry, never a key. */
function apiKeysFromEnv(runtime: ServeRuntime): Map<string, Plan> | undefined {
  const text = runtime.env(API_KEYS_VARIABLE);
  if (text === undefined) return undefined;
  try {
    return parseApiKeys(text);
  } catch (error) {
    throw new TypeError(`serve: ${API_KEYS_VARIABLE}: ${(error as Error).message}`);
  }
}

/** `http://host:port` for a bound address; a wildcard address becomes `localhost`, which reaches it. */
export function originOf(address: string, port: number): string {
  const host = address === '0.0.0.0' || address === '::' ? 'localhost' : address;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

/**
 * The result of `serve`: `close` made idempotent, wired to `signal` and `Symbol.asyncDispose`.
 * `stop` stops the server; it runs once.
 *
 * @example
 * return listening(`${originOf('127.0.0.1', port)}`, plan, () => server.shutdown());
 */
export function listening<Extra extends object = object>(
  origin: string,
  plan: ServePlan<ListenOptions>,
  stop: () => Promise<void>,
  extra?: Extra,
): ListeningPetStore & Extra {
  const { petstore, owned, signal } = plan;
  let closing: Promise<void> | undefined;
  const onAbort = () => void close().catch(() => {}); // nobody awaits an abort; close()'s own callers see errors
  const close = () =>
    (closing ??= (async () => {
      signal?.removeEventListener('abort', onAbort);
      await stop();
      if (owned) await petstore.dispose();
    })());
  signal?.addEventListener('abort', onAbort, { once: true });
  // Aborted while the server was starting: it closes as soon as it exists.
  if (signal?.aborted) onAbort();
  // A handler without a basePath (a bare @whatwg-node adapter) is served from the root.
  const url = `${origin}${petstore.basePath ?? ''}`;
  return Object.assign({ url, petstore, close, [Symbol.asyncDispose]: close }, extra) as ListeningPetStore & Extra;
}
