/** What the petstore-service command's flags and environment ask for, read and checked before anything starts. */
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { createCallerAddress, type Plan } from '../src/index.ts';
import { readApiKeys } from './api-keys.ts';
import { readLogFormat, type LogFormat } from './access-log.ts';
import { readStoreSettings, type StoreSettings } from './stores.ts';

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  key: { type: 'string', short: 'k', multiple: true },
  delay: { type: 'string' },
  'fail-rate': { type: 'string' },
  data: { type: 'string' },
  'database-url': { type: 'string' },
  redis: { type: 'string' },
  'admin-token': { type: 'string' },
  'trust-proxy': { type: 'string' },
  log: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

/** What the command line and environment ask for. */
export interface Settings {
  readonly help: boolean;
  readonly version: boolean;
  readonly port: number;
  readonly host: string;
  readonly apiKeys: Map<string, Plan>;
  readonly keySource: string;
  readonly delayMs: number;
  readonly failRate: number;
  readonly stores: StoreSettings;
  readonly adminToken: string | undefined;
  /** The access log's format; `undefined` with --quiet. */
  readonly log: LogFormat | undefined;
  /** Which proxies' forwarding headers to believe: a hop count or addresses and ranges (the `trustProxy` option). */
  readonly trustProxy: number | readonly string[];
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
    if (token.kind === 'positional') throw new Error(`unexpected argument "${token.value}"`);
    if (token.kind === 'option-terminator') continue;
    const option = Object.hasOwn(OPTIONS, token.name) ? OPTIONS[token.name as keyof typeof OPTIONS] : undefined;
    if (!option) throw new Error(`unknown option ${token.rawName}`);
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

export function readSettings(argv: string[], env: NodeJS.ProcessEnv): Settings {
  const { values } = parseArgs({ args: normalizeArgs(argv), options: OPTIONS });
  const delayText = values.delay ?? '0';
  const delayMs = /^[0-9]+$/.test(delayText) ? Number(delayText) : NaN;
  // The longest wait a timer can hold: a fault rule refuses more, and the command must say so before it starts.
  if (!Number.isSafeInteger(delayMs) || delayMs > 2 ** 31 - 1) {
    throw new Error(`--delay must be a whole number of milliseconds from 0 to ${2 ** 31 - 1}, got "${delayText}"`);
  }
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
  const log = readLogFormat(values.log, values.quiet ?? false);
  const trustProxy = readTrustProxy(
    values['trust-proxy'] ?? env.PETSTORE_TRUST_PROXY,
    values['trust-proxy'] === undefined ? 'PETSTORE_TRUST_PROXY' : '--trust-proxy',
  );
  return {
    help: values.help ?? false,
    version: values.version ?? false,
    port,
    host,
    apiKeys,
    keySource,
    delayMs,
    failRate,
    stores,
    adminToken,
    log,
    trustProxy,
  };
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

/** `--admin-token`, else PETSTORE_ADMIN_TOKEN (empty is unset): long enough, and only with the memory stores it resets. */
function readAdminToken(flag: string | undefined, env: NodeJS.ProcessEnv, stores: StoreSettings): string | undefined {
  const from = flag === undefined ? 'PETSTORE_ADMIN_TOKEN' : '--admin-token';
  const token = flag ?? (env.PETSTORE_ADMIN_TOKEN || undefined);
  if (token === undefined) return undefined;
  if (token.trim().length < 16) throw new Error(`${from} must be 16 or more characters`);
  if (stores.data !== undefined || stores.database || stores.redis) {
    throw new Error(`${from} works with the in-memory stores only (the admin API resets them); leave out --data, --database-url and --redis`);
  }
  return token;
}
