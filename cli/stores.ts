/** Where the petstore-service command keeps pets and limits: memory, PGlite, PostgreSQL or Redis, opened before it listens. */
import type { LimitStore, PetStorage } from '../src/index.ts';
import { redisLimitStore, redisPetStorage } from '../stores/redis/index.ts';
import { migrate, pgliteClient, postgresClient, sqlLimitStore, sqlPetStorage, type SqlClient } from '../stores/sql/index.ts';
import { openExclusiveStores, type ExclusiveStores } from '../stores/sql/exclusive.ts';
import { claimDataDirectory, type DataDirectory } from './data-directory.ts';

/** A URL from a flag or the environment, and which one, to name it in messages. */
interface UrlSetting {
  readonly url: URL;
  readonly from: string;
}

/** What the command line and environment say about storage. */
export interface StoreSettings {
  /** `--data <dir>` (or PETSTORE_DATA), as typed. */
  readonly data?: string;
  readonly database?: UrlSetting;
  readonly redis?: UrlSetting;
}

/** A store that cannot be used as asked: the command prints the message as its one line and exits 2. */
export class StoreError extends Error {}

/** Open stores, what the banner says about them, and how to close them once the server has. */
export interface Stores {
  readonly storage?: PetStorage;
  readonly limitStore?: LimitStore;
  /** `Pets and limits: PGlite in ./data`, never a password. */
  readonly banner: string;
  close(): Promise<void>;
}

/** How long to wait for a database or Redis to answer on start. */
const CONNECT_TIMEOUT_S = 5;

/** A flag's value, else the variable's (empty counts as unset), as a URL of one of `protocols`. */
function urlSetting(flag: string, value: string | undefined, variable: string, env: NodeJS.ProcessEnv, protocols: string[], like: string) {
  const fromEnv = value === undefined && env[variable] !== undefined && env[variable] !== '';
  const text = value ?? (fromEnv ? env[variable] : undefined);
  if (text === undefined) return undefined;
  const from = fromEnv ? variable : flag;
  // Never the value itself in the message: it may hold a password.
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !protocols.includes(url.protocol)) throw new Error(`${from} must be a URL like ${like}`);
  // The drivers decode these, and a stray % made them throw "URI malformed" after the checks.
  if (![url.username, url.password, url.pathname].every(decodes)) {
    throw new Error(`${from} holds a % that starts no %-escape; write a % in the user name, password or database as %25`);
  }
  if (url.protocol.startsWith('redis') && !/^\/?[0-9]*$/.test(url.pathname)) {
    throw new Error(`${from} may name a Redis database by its number only, as in redis://host:6379/0`);
  }
  return { url, from };
}

/** Whether `text` is valid percent-encoding. */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** Reads the storage flags and variables; a mistake is an Error in plain words (the command adds "see --help"). */
export function readStoreSettings(values: { data?: string; 'database-url'?: string; redis?: string }, env: NodeJS.ProcessEnv): StoreSettings {
  // Flags win over the environment: --data with DATABASE_URL set uses the directory, --database-url with PETSTORE_DATA the database.
  const fromEnv = values.data === undefined && values['database-url'] === undefined;
  const data = fromEnv ? env.PETSTORE_DATA : values.data;
  if (data?.trim() === '') throw new Error('--data needs a directory');
  if (data !== undefined && (fromEnv ? env.DATABASE_URL : values['database-url']) !== undefined) {
    throw new Error(
      `${fromEnv ? 'PETSTORE_DATA and DATABASE_URL' : '--data and --database-url'} cannot be used together: pick PGlite in a directory or a PostgreSQL server`,
    );
  }
  const database =
    data === undefined
      ? urlSetting('--database-url', values['database-url'], 'DATABASE_URL', env, ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database')
      : undefined;
  const redis = urlSetting('--redis', values.redis, 'REDIS_URL', env, ['redis:', 'rediss:'], 'redis://:password@host:6379');
  return { data, database, redis };
}

/** `host:port` of a URL, with the driver's defaults; never its user or password. */
function address(url: URL, defaultPort: number): string {
  return `${url.hostname || 'localhost'}:${url.port || defaultPort}`;
}

/**
 * Why a connection failed, in a few words: a common failure named plainly, else the first line of
 * what the driver or server said, with the URL's password blanked out in case it is echoed.
 */
function reason(error: unknown, url?: URL): string {
  const { code = '', message = String(error) } = error as { code?: unknown; message?: string };
  const text = `${String(code)} ${message}`;
  if (/ECONNREFUSED/.test(text)) return 'connection refused';
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) return 'no such host';
  if (/CONNECT_TIMEOUT|ETIMEDOUT|no answer from PostgreSQL within/.test(text)) return `no answer within ${CONNECT_TIMEOUT_S} s`;
  if (/EHOSTUNREACH|ENETUNREACH/.test(text)) return 'host unreachable';
  if (/ECONNRESET|EPIPE|Socket closed unexpectedly/.test(text)) return 'the server closed the connection';
  // OpenSSL's words for plain bytes where a TLS record was due.
  if (/wrong version number|WRONG_VERSION_NUMBER/i.test(text)) return 'the server does not speak TLS, which the URL asks for (rediss://, sslmode)';
  if (/^WRONGPASS/.test(message)) return 'wrong user name or password';
  if (/^NOAUTH/.test(message)) return 'it wants a password: redis://:PASSWORD@host:port';
  const password = url && decodeURIComponent(url.password);
  const line = message.split('\n')[0]!;
  return password ? line.split(password).join('***') : line;
}

/** Rejects with a timeout error when `promise` takes longer than the connect timeout. */
async function withinTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), CONNECT_TIMEOUT_S * 1_000);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A driver the user installs (an optional peer dependency), imported by a name the bundler cannot
 * follow: the build never inlines it, and the command runs without it unless the flag needs it.
 */
async function driver<T>(name: string, usedBy: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes(`'${name}'`)) throw new StoreError(`install ${name} to use ${usedBy}`);
    throw error;
  }
}

/** What a backend gives: its stores, a name for the banner, and its close. */
interface Backend {
  readonly storage: PetStorage;
  readonly limitStore: LimitStore;
  readonly name: string;
  close(): Promise<void>;
}

/** Stores on a migrated SQL client. */
function sqlBackend(client: SqlClient, name: string, close: () => Promise<void>): Backend {
  return { storage: sqlPetStorage(client), limitStore: sqlLimitStore(client), name, close };
}

/**
 * PGlite in `dir` (created if missing), locked to this process and migrated. A new database takes
 * PGlite's initdb, seconds of WebAssembly, so a line says what is going on before it starts.
 */
async function openPglite(dir: string, log: (line: string) => void): Promise<Backend> {
  const { PGlite } = await driver<typeof import('@electric-sql/pglite')>('@electric-sql/pglite', '--data');
  let data: DataDirectory;
  try {
    data = claimDataDirectory(dir);
  } catch (error) {
    throw new StoreError((error as Error).message);
  }
  if (data.fresh) log(`creating the database in ${dir} (first start takes a few seconds)…`);
  let db: Awaited<ReturnType<typeof PGlite.create>>;
  let stores: ExclusiveStores;
  try {
    db = await PGlite.create(dir);
    await migrate(pgliteClient(db));
    data.created();
    // The directory's lock makes this process the database's only writer: reads from memory,
    // writes in group commits: the cheaper path, at the same durability as sqlPetStorage and
    // sqlLimitStore (see BENCHMARKS.md, The command on `--data` and Findings).
    stores = await openExclusiveStores(db);
  } catch (error) {
    data.release();
    throw new StoreError(`cannot open PGlite in ${dir}: ${reason(error)}`);
  }
  const close = async () => {
    await stores.drain();
    await db.close();
    data.release();
  };
  return { storage: stores.storage, limitStore: stores.limitStore, name: `PGlite in ${dir}`, close };
}

/** A pool of connections to PostgreSQL, reached and migrated. */
async function openPostgres({ url, from }: UrlSetting): Promise<Backend> {
  const { default: postgres } = await driver<{ default: typeof import('postgres') }>('postgres', from);
  const where = address(url, 5432);
  const database = decodeURIComponent(url.pathname.slice(1));
  // backoff: a connection that failed is tried again half a second after it is next needed (the
  // driver's default waits up to 20 s, so the service would stay down that long after an outage).
  // onnotice: the migration's "already exists, skipping" notices are not for the user.
  const sql = postgres(url.href, { connect_timeout: CONNECT_TIMEOUT_S, backoff: () => 0.5, onnotice: () => {} });
  const client = postgresClient(sql);
  const give = async (what: string, error: unknown) => {
    await sql.end({ timeout: 0 });
    return new StoreError(`${what} ${where}: ${reason(error, url)}`);
  };
  await client.query('SELECT 1').catch(async (error: unknown) => {
    throw await give('cannot connect to PostgreSQL at', error);
  });
  await migrate(client).catch(async (error: unknown) => {
    throw await give('cannot create the tables in PostgreSQL at', error);
  });
  return sqlBackend(client, `PostgreSQL at ${where}${database ? `/${database}` : ''}`, () => sql.end({ timeout: 5 }));
}

/** A Redis client, reached; while running, it reconnects by itself and says so on stderr. */
async function openRedis({ url, from }: UrlSetting, log: (line: string) => void): Promise<Backend> {
  const { createClient } = await driver<typeof import('redis')>('redis', from);
  const where = address(url, 6379);
  let ready = false;
  let lastError: string | undefined;
  const client = createClient({
    url: url.href,
    // Fail fast while Redis is down (a 500), rather than queue requests.
    disableOfflineQueue: true,
    // On start, the first failure is the answer; once running, retry every while, up to 2 s apart.
    socket: { connectTimeout: CONNECT_TIMEOUT_S * 1_000, reconnectStrategy: (retries, cause) => (ready ? Math.min(50 * 2 ** retries, 2_000) : cause) },
  });
  client.on('error', (error: Error) => {
    const line = reason(error, url);
    if (ready && line !== lastError) log(`Redis at ${where}: ${line}`);
    lastError = line;
  });
  client.on('ready', () => {
    if (ready && lastError) log(`Redis at ${where}: connected again`);
    lastError = undefined;
  });
  const connecting = client.connect().then(() => client.ping());
  connecting.catch(() => {}); // after a timeout, its own failure comes later and is no news
  try {
    await withinTimeout(connecting);
  } catch (error) {
    try {
      client.destroy(); // redis 5 and later; the command exits right after anyway
    } catch {
      // Not connected, or redis 4.
    }
    throw new StoreError(`cannot connect to Redis at ${where}: ${reason(error, url)}`);
  }
  ready = true;
  // close() since redis 5; the peer range starts at 4, whose graceful close is quit().
  const close = async () => {
    await (typeof client.close === 'function' ? client.close() : client.quit());
  };
  return { storage: redisPetStorage(client), limitStore: redisLimitStore(client), name: `Redis at ${where}`, close };
}

/**
 * Opens what the settings ask for, before the server listens: `--data` or `--database-url` for
 * pets and limits, `--redis` for limits (and pets when neither is given), memory otherwise.
 * Anything that cannot be reached or opened is a {@link StoreError}, with what was opened closed.
 */
export async function openStores(settings: StoreSettings, log: (line: string) => void): Promise<Stores> {
  const opened: Backend[] = [];
  try {
    if (settings.data !== undefined) opened.push(await openPglite(settings.data, log));
    else if (settings.database) opened.push(await openPostgres(settings.database));
    if (settings.redis) opened.push(await openRedis(settings.redis, log));
  } catch (error) {
    await Promise.allSettled(opened.map((backend) => backend.close()));
    throw error;
  }
  // One backend holds both; with two, the database holds pets and Redis limits.
  const pets = opened[0];
  const limits = opened.at(-1);
  const close = async () => {
    for (const backend of opened) await backend.close();
  };
  if (!pets || !limits) return { banner: 'Pets and limits: memory (gone when the process stops)', close };
  const banner = pets === limits ? `Pets and limits: ${pets.name}` : `Pets: ${pets.name}; limits: ${limits.name}`;
  return { storage: pets.storage, limitStore: limits.limitStore, banner, close };
}
