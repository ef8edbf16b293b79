#!/usr/bin/env node
/** The petstore-service command: serves the API over Node http, configured by flags and env. */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { parseApiKeys } from '../../src/auth/api-keys.ts';
import { createFaults, withFaults } from '../../src/faults.ts';
import type { PetStore } from '../../src/handler.ts';
import type { Plan } from '../../src/limits/plans.ts';
import { resolveOptions } from '../../src/options.ts';
import { createHandle, toPetStore } from '../../src/pet-store.ts';
import { serve } from './index.ts';

const HELP = `Usage: petstore-service [options]

Serves the Pet Store API over HTTP under /v1, with in-memory storage.

Options:
  -p, --port <port>    TCP port (env PORT, default 8080; 0 picks a free one)
      --host <host>    interface to bind (env HOST, default 127.0.0.1)
  -k, --key <k:plan>   an API key and its plan; repeatable (env PETSTORE_API_KEYS,
                       comma-separated). Plans: free, pro, business,
                       enterprise:PER_MINUTE:PER_DAY. Without keys, one free key is
                       generated and printed.
      --delay <ms>     for demos: answer every request this much later
      --fail-rate <r>  for demos: answer this share of requests (0..1) with 503
  -h, --help           show this help

Example:
  PETSTORE_API_KEYS=k1:free,k2:enterprise:100000:10000000 petstore-service --port 3000
`;

/** What the command line and environment ask for. */
interface Settings {
  readonly help: boolean;
  readonly port: number;
  readonly host: string;
  readonly apiKeys: Map<string, Plan>;
  readonly keySource: string;
  readonly delayMs: number;
  readonly failRate: number;
}

function readSettings(argv: string[], env: NodeJS.ProcessEnv): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      key: { type: 'string', short: 'k', multiple: true },
      delay: { type: 'string' },
      'fail-rate': { type: 'string' },
    },
  });
  const delayMs = values.delay === undefined ? 0 : Number(values.delay);
  if (!(Number.isSafeInteger(delayMs) && delayMs >= 0)) throw new TypeError(`--delay must be whole milliseconds, got "${values.delay}"`);
  const failRate = values['fail-rate'] === undefined ? 0 : Number(values['fail-rate']);
  if (!(failRate >= 0 && failRate <= 1)) throw new TypeError(`--fail-rate must be a number from 0 to 1, got "${values['fail-rate']}"`);
  const portText = values.port ?? env.PORT ?? '8080';
  const port = /^[0-9]{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new TypeError(`port must be an integer from 0 to 65535, got "${portText}"`);
  const host = values.host ?? env.HOST ?? '127.0.0.1';
  if (host.trim() === '') throw new TypeError('host must not be empty');
  const fromFlags = values.key !== undefined;
  const apiKeys = parseApiKeys(fromFlags ? values.key!.join(',') : (env.PETSTORE_API_KEYS ?? ''));
  const keySource = fromFlags ? '--key' : 'PETSTORE_API_KEYS';
  return { help: values.help ?? false, port, host, apiKeys, keySource, delayMs, failRate };
}

/** The Pet Store for these keys, behind the demo faults the flags ask for, if any. */
function demoPetStore(apiKeys: ReadonlyMap<string, Plan>, { delayMs, failRate }: Settings): PetStore {
  const config = resolveOptions({ apiKeys });
  const faults = createFaults();
  if (delayMs) faults.inject({ delayMs, times: Infinity });
  if (failRate) faults.inject({ status: 503, rate: failRate, times: Infinity });
  return toPetStore(withFaults(createHandle(config), faults), config.basePath);
}

async function main(): Promise<void> {
  let settings: Settings;
  try {
    settings = readSettings(process.argv.slice(2), process.env);
  } catch (error) {
    const [firstLine] = (error as Error).message.split('\n');
    process.stderr.write(`petstore-service: ${firstLine} (see --help)\n`);
    process.exit(2);
  }
  if (settings.help) {
    process.stdout.write(HELP);
    return;
  }
  const apiKeys = new Map(settings.apiKeys);
  const generatedKey = apiKeys.size === 0 ? randomBytes(24).toString('base64url') : undefined;
  if (generatedKey) apiKeys.set(generatedKey, 'free');

  const handler = demoPetStore(apiKeys, settings);
  const { url } = await serve(handler, { port: settings.port, hostname: settings.host, handleSignals: true });
  const lines = [`Pet Store API listening on ${url}`];
  if (settings.delayMs || settings.failRate) {
    lines.push(`Demo faults: every answer ${settings.delayMs} ms late, ${settings.failRate * 100}% of them 503.`);
  }
  if (generatedKey) {
    lines.push(`API key (free plan, generated for this run): ${generatedKey}`);
    lines.push(`Try: curl -H "Authorization: Bearer ${generatedKey}" ${url}/pets`);
  } else {
    // Configured keys are secrets: say how many, never which.
    lines.push(`Using ${apiKeys.size} API key(s) from ${settings.keySource}.`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  const { code, message } = error as NodeJS.ErrnoException;
  process.stderr.write(`petstore-service: ${code === 'EADDRINUSE' ? 'the port is already in use' : message}\n`);
  process.exit(1);
});
