/** What the petstore-service command's flags and environment ask for, read and checked before anything starts. */
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import {
  ADMIN_BOUNDS,
  ADMIN_TOKEN_PATTERN,
  ADMIN_TOKEN_RULE,
  PROXY_HEADERS,
  createCallerAddress,
  isOrigin,
  nearestName,
  type Plan,
  type ProxyHeader,
} from '../src/index.ts';
import { readApiKeys } from './api-keys.ts';
import { readLogFormat, type LogFormat } from './access-log.ts';
import { readDelay, readGenerate } from './demo-flags.ts';
import type { DelayRange, GenerateOptions } from '../controls/index.ts';
import { readStoreSettings, type StoreSettings } from './stores.ts';

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  key: { type: 'string', short: 'k', multiple: true },
  delay: { type: 'string' },
  generate: { type: 'string' },
  'fail-rate': { type: 'string' },
  data: { type: 'string' },
  'database-url': { type: 'string' },
  redis: { type: 'string' },
  'admin-token': { type: 'string' },
  sandboxes: { type: 'string' },
  'sandbox-idle': { type: 'string' },
  journal: { type: 'string' },
  'journal-mib': { type: 'string' },
  pets: { type: 'string' },
  'trust-proxy': { type: 'string' },
  'proxy-header': { type: 'string' },
  log: { type: 'string' },
  metrics: { type: 'boolean' },
  'metrics-token': { type: 'string' },
  cors: { type: 'string' },
  'ban-hold-ms': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

/** The words the command takes before its options (cli/index.ts runs each): a word near one is a misspelling of it. */
const SUBCOMMANDS = ['init'];

/** What the command line and environment ask for. */
export interface Settings {
  readonly help: boolean;
  readonly version: boolean;
  readonly port: number;
  readonly host: string;
  readonly apiKeys: Map<string, Plan>;
  readonly keySource: string;
  /** `--delay`: a fixed delay, or a range each answer's delay is drawn from. */
  readonly delayMs: number | DelayRange;
  /** `--generate`: the pets to start with, if any. */
  readonly generate: Required<GenerateOptions> | undefined;
  readonly failRate: number;
  readonly stores: StoreSettings;
  readonly adminToken: string | undefined;
  /** The admin API's bounds (`--sandboxes`, `--sandbox-idle`, `--journal`, `--journal-mib`, `--pets`): each `undefined` for its default. */
  readonly adminBounds: {
    readonly sandboxes?: number;
    readonly sandboxIdleMinutes?: number;
    readonly journal?: number;
    readonly journalMiB?: number;
    readonly pets?: number;
  };
  /** The access log's format; `undefined` with --quiet. */
  readonly log: LogFormat | undefined;
  /** Which proxies' forwarding headers to believe: a hop count or addresses and ranges (the `trustProxy` option). */
  readonly trustProxy: number | readonly string[];
  /** The one header those proxies are believed in (the `proxyHeader` option). */
  readonly proxyHeader: ProxyHeader;
  /** `--metrics` (or PETSTORE_METRICS=1): Prometheus text at `GET /metrics` on the API's port. */
  readonly metrics: boolean;
  /** `--metrics-token` (or PETSTORE_METRICS_TOKEN): the Bearer token `/metrics` then asks for; none, for a scrape without one. */
  readonly metricsToken: string | undefined;
  /** `--cors` (or PETSTORE_CORS): the `cors` option, `*` or the origins whose pages may call the API; none for no CORS headers. */
  readonly cors: '*' | readonly string[] | undefined;
  /** `--ban-hold-ms`: the `banHoldMs` option, none for its default. */
  readonly banHold: { readonly banHoldMs?: number };
}

/**
 * The arguments with every option as `--name` or `--name=value`, or an error in plain words. It
 * reads them leniently first, so `--port -1` is a port of -1 (refused below for what it is) rather
 * than parseArgs' "ambiguous", and says itself what is unknown, missing or extra.
 */
function normalizeArgs(argv: string[]): string[] {
  const { tokens } = parseArgs({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const args: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      const near = nearestName(token.value, SUBCOMMANDS);
      if (near === token.value) throw new Error(`${near} comes first, before any option: petstore-service ${near} …`);
      throw new Error(`unexpected argument "${token.value}"${near ? `: did you mean ${near}?` : ''}`);
    }
    if (token.kind === 'option-terminator') continue;
    const option = Object.hasOwn(OPTIONS, token.name) ? OPTIONS[token.name as keyof typeof OPTIONS] : undefined;
    if (!option) {
      // A long flag only: one letter is too short to guess from.
      const near = token.rawName.startsWith('--') ? nearestName(token.name, Object.keys(OPTIONS)) : undefined;
      throw new Error(`unknown option ${token.rawName}${near ? `; did you mean --${near}?` : ''}`);
    }
    const flag = `--${token.name}`;
    if (option.type === 'boolean') {
      if (token.value !== undefined) throw new Error(`${flag} takes no value`);
      args.push(flag);
      continue;
    }
    // `--host --key k` took "--key" as the host; a negative number is a value, refused later for its sign.
    const takenFromNextFlag = !token.inlineValue && /^-(?![0-9.])/.test(token.value ?? '');
    if (token.value === undefined || takenFromNextFlag) throw new Error(`${flag} needs a value`);
    args.push(`${flag}=${token.value}`);
  }
  return args;
}

/**
 * What `argv` and `processEnv` ask for, or an Error in plain words. A variable set empty counts as
 * unset (`PORT= petstore-service`, as a compose file or CI leaves it); with --help or --version the
 * environment is not read at all, so neither can fail on it.
 *
 * @example
 * readSettings(['--port', '3000'], { HOST: '', PETSTORE_API_KEYS: 'k1:free' }).host; // '127.0.0.1'
 */
export function readSettings(argv: string[], processEnv: NodeJS.ProcessEnv): Settings {
  const { values } = parseArgs({ args: normalizeArgs(argv), options: OPTIONS });
  const env = values.help || values.version ? {} : Object.fromEntries(Object.entries(processEnv).filter(([, value]) => value !== ''));
  const delayMs = readDelay(values.delay);
  const generate = readGenerate(values.generate ?? env.PETSTORE_GENERATE, values.generate === undefined ? 'PETSTORE_GENERATE' : '--generate');
  const failRateText = values['fail-rate'] ?? '0';
  // Decimal only: Number() would also take "0x1" or "0b1", a 100 % rate no one meant.
  const failRate = /^([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?$/i.test(failRateText) ? Number(failRateText) : NaN;
  if (!(failRate >= 0 && failRate <= 1)) throw new Error(`--fail-rate must be a number from 0 to 1, got "${failRateText}"`);
  const portText = values.port ?? env.PORT ?? '8080';
  const port = /^[0-9]{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new Error(`${values.port === undefined ? 'PORT' : '--port'} must be a whole number from 0 to 65535, got "${portText}"`);
  }
  const host = values.host ?? env.HOST ?? '127.0.0.1';
  checkHost(host, values.host === undefined ? 'HOST' : '--host');
  const fromFlags = values.key !== undefined;
  const keySource = fromFlags ? '--key' : 'PETSTORE_API_KEYS';
  const apiKeys = readApiKeys(fromFlags ? values.key!.join(',') : (env.PETSTORE_API_KEYS ?? ''), keySource);
  const stores = readStoreSettings(values, env);
  const adminToken = readAdminToken(values['admin-token'], env, stores);
  const adminBounds = readAdminBounds(values, adminToken !== undefined);
  const log = readLogFormat(values.log, values.quiet ?? false);
  const trustProxy = readTrustProxy(
    values['trust-proxy'] ?? env.PETSTORE_TRUST_PROXY,
    values['trust-proxy'] === undefined ? 'PETSTORE_TRUST_PROXY' : '--trust-proxy',
  );
  const proxyHeader = readProxyHeader(
    values['proxy-header'] ?? env.PETSTORE_PROXY_HEADER,
    values['proxy-header'] === undefined ? 'PETSTORE_PROXY_HEADER' : '--proxy-header',
    trustProxy,
  );
  const metrics = values.metrics ?? readSwitch(env.PETSTORE_METRICS, 'PETSTORE_METRICS');
  const metricsToken = readMetricsToken(values['metrics-token'], env, metrics);
  const cors = readCors(values.cors ?? env.PETSTORE_CORS, values.cors === undefined ? 'PETSTORE_CORS' : '--cors');
  const banHold = readBanHold(values['ban-hold-ms']);
  return {
    help: values.help ?? false,
    version: values.version ?? false,
    port,
    host,
    apiKeys,
    keySource,
    delayMs,
    generate,
    failRate,
    stores,
    adminToken,
    adminBounds,
    log,
    trustProxy,
    proxyHeader,
    metrics,
    metricsToken,
    cors,
    banHold,
  };
}

/** `--ban-hold-ms`, a whole number of milliseconds (0 for none), as the `banHoldMs` option; nothing when not given. */
function readBanHold(text: string | undefined): Settings['banHold'] {
  if (text === undefined) return {};
  if (!/^[0-9]{1,9}$/.test(text)) throw new Error(`--ban-hold-ms must be a whole number of milliseconds, 0 for none, got "${text}"`);
  return { banHoldMs: Number(text) };
}

/** `--cors`, else PETSTORE_CORS: `*`, or comma-separated origins each as the `cors` option takes one, checked now. */
function readCors(text: string | undefined, from: string): '*' | readonly string[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (text.trim() === '*') return '*';
  const origins = text.split(',').map((origin) => origin.trim());
  const wrong = origins.find((origin) => !isOrigin(origin));
  if (wrong !== undefined) throw new Error(`${from} must be * or comma-separated origins like https://app.example, got "${wrong}"`);
  return origins;
}

/** `--metrics-token`, else PETSTORE_METRICS_TOKEN (empty is unset): a token as the admin API's is, and only with the `/metrics` it guards. */
function readMetricsToken(flag: string | undefined, env: NodeJS.ProcessEnv, metrics: boolean): string | undefined {
  const from = flag === undefined ? 'PETSTORE_METRICS_TOKEN' : '--metrics-token';
  const token = flag ?? env.PETSTORE_METRICS_TOKEN;
  if (token === undefined) return undefined;
  if (!ADMIN_TOKEN_PATTERN.test(token)) throw new Error(`${from} must be ${ADMIN_TOKEN_RULE}`);
  if (!metrics) throw new Error(`${from} guards /metrics: give --metrics too`);
  return token;
}

/** A variable that turns something on, as its flag does: 1 or true, 0 or false (any case), unset or empty for off. */
function readSwitch(text: string | undefined, from: string): boolean {
  if (text === undefined) return false;
  const value = text.trim().toLowerCase();
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new Error(`${from} must be 1 or true to turn it on, 0 or false to leave it off, got "${text}"`);
}

/** `--trust-proxy` as the `trustProxy` option takes it: a hop count, or comma-separated addresses and CIDR ranges, checked now. */
function readTrustProxy(text: string | undefined, from: string): number | readonly string[] {
  if (text === undefined || text.trim() === '') return 0;
  const trustProxy = /^[0-9]{1,3}$/.test(text.trim()) ? Number(text) : text.split(',').map((range) => range.trim());
  try {
    createCallerAddress({ clientAddress: undefined, trustProxy });
  } catch (error) {
    throw new Error(
      `${from}: ${(error as Error).message.replace(/^trustProxy: /, '')}; give a number of proxies (1) or their addresses and ranges (10.0.0.0/8)`,
    );
  }
  return trustProxy;
}

/** `--proxy-header`, else PETSTORE_PROXY_HEADER, in any case: one of the two headers, and only with proxies to believe in it. */
function readProxyHeader(text: string | undefined, from: string, trustProxy: number | readonly string[]): ProxyHeader {
  if (text === undefined || text.trim() === '') return PROXY_HEADERS[0]!;
  const name = text.trim().toLowerCase();
  const names = PROXY_HEADERS.map((header) => `"${header}"`).join(' or ');
  if (!PROXY_HEADERS.includes(name as ProxyHeader)) throw new Error(`${from} must be ${names}, got "${text}"`);
  if (trustProxy === 0 || (Array.isArray(trustProxy) && trustProxy.length === 0)) {
    throw new Error(`${from} names the header trusted proxies set: give --trust-proxy too`);
  }
  return name as ProxyHeader;
}

/**
 * Refuses a host that cannot be one: empty, or with a scheme, a port or brackets, which Node
 * would look up as a name and report as "no such interface/address".
 */
function checkHost(host: string, from: string): void {
  if (host.trim() === '') throw new Error(`${from} must not be empty`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) throw new Error(`${from} takes a name or address without a scheme, got "${host}"; e.g. --host 0.0.0.0`);
  if (/^\[.*\]$/.test(host)) throw new Error(`${from} takes an IPv6 address without brackets, e.g. --host ${host.slice(1, -1)}`);
  if (isIP(host) === 0 && /:[0-9]*$/.test(host)) throw new Error(`${from} takes no port, got "${host}"; give the port with --port`);
}

/** The flags each naming an admin setting, and the setting: a whole number in ADMIN_BOUNDS' range. */
const ADMIN_FLAGS = { sandboxes: 'sandboxes', 'sandbox-idle': 'sandboxIdleMinutes', journal: 'journal', 'journal-mib': 'journalMiB', pets: 'pets' } as const;

/** `--sandboxes`, `--sandbox-idle`, `--journal`, `--journal-mib` and `--pets`, checked: each only with the admin API, which they bound. */
function readAdminBounds(values: Partial<Record<keyof typeof ADMIN_FLAGS, string>>, withAdmin: boolean): Settings['adminBounds'] {
  const bounds: Record<string, number> = {};
  for (const [flag, name] of Object.entries(ADMIN_FLAGS) as [keyof typeof ADMIN_FLAGS, (typeof ADMIN_FLAGS)[keyof typeof ADMIN_FLAGS]][]) {
    const text = values[flag];
    if (text === undefined) continue;
    if (!withAdmin) throw new Error(`--${flag} bounds the admin API: give --admin-token too`);
    const { min, max } = ADMIN_BOUNDS[name];
    const value = /^[0-9]{1,9}$/.test(text) ? Number(text) : Number.NaN;
    const unit = name === 'sandboxIdleMinutes' ? ' of minutes' : name === 'journalMiB' ? ' of MiB' : '';
    if (!(value >= min && value <= max)) throw new Error(`--${flag} must be a whole number${unit} from ${min} to ${max}, got "${text}"`);
    bounds[name] = value;
  }
  return bounds;
}

/** `--admin-token`, else PETSTORE_ADMIN_TOKEN (empty is unset): long enough and sendable as a Bearer token, and only with the memory stores it resets. */
function readAdminToken(flag: string | undefined, env: NodeJS.ProcessEnv, stores: StoreSettings): string | undefined {
  const from = flag === undefined ? 'PETSTORE_ADMIN_TOKEN' : '--admin-token';
  const token = flag ?? (env.PETSTORE_ADMIN_TOKEN || undefined);
  if (token === undefined) return undefined;
  // Checked here, not only by the admin option: a token no client can send would start a server no one can control.
  if (!ADMIN_TOKEN_PATTERN.test(token)) throw new Error(`${from} must be ${ADMIN_TOKEN_RULE}`);
  if (stores.data !== undefined || stores.database || stores.redis) {
    throw new Error(`${from} works with the in-memory stores only (the admin API resets them); leave out --data, --database-url and --redis`);
  }
  return token;
}
