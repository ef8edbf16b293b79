#!/usr/bin/env node
/** The petstore-service command: serves the API over Node http, configured by flags and env. */
import { randomBytes } from 'node:crypto';
import { compose, toPetStore, type NodeFront } from '../compose/compose.ts';
import type { PetStore } from '../compose/handler.ts';
import { type FaultRule, controlLayers, generatedPets } from '../controls/index.ts';
import { nodeListener } from '../hosts/node/listener.ts';
import { PetStoreWarning, resolveOptions, seedPets, type Pet, type Plan, type Telemetry } from '../src/index.ts';
import { delayInWords } from './demo-flags.ts';
import { accessLog, lineWriter } from './access-log.ts';
import { readSettings, type Settings } from './settings.ts';
import { openStores, StoreError, type Stores } from './stores.ts';
import { serve, type RunningPetStore } from '../runtimes/node/index.ts';
import { HELP } from './help.ts';
import { runInit } from './init.ts';
import { adminExposure, listeningOn, metricsExposure } from './listening.ts';
import { METRICS_PATH, MissingPackages, openCommandTelemetry } from './metrics.ts';

/** The version this file was built from: tsup's `define` puts package.json's version here. */
declare const __PETSTORE_VERSION__: string;

/** How often the same failure is reported again while it goes on. */
const REPEAT_REPORT_MS = 10_000;

/** A warning's message with the options it names written as the flags that set them. */
const flagNames = (message: string) => message.replaceAll('trustProxy', '--trust-proxy').replaceAll('proxyHeader', '--proxy-header');

/**
 * What the command does with a request that failed unexpectedly (a store down, say): one line on
 * stderr, without the stack, since an outage under load must not bury the log. The same failure
 * again is counted, not printed, and reported with its count at most every 10 s or when another
 * failure comes.
 */
function failureReporter(write: (line: string) => void, now = Date.now): (error: unknown) => void {
  let last = '';
  let repeats = 0;
  let reportedAt = 0;
  return (error) => {
    // A warning is told once by the store; it names the option, which the command sets with a flag.
    if (error instanceof PetStoreWarning) return write(`warning ${error.code}: ${flagNames(error.message)}`);
    const line = `a request failed with 500: ${String((error as Error)?.message ?? error).split('\n')[0]}`;
    if (line === last && now() - reportedAt < REPEAT_REPORT_MS) {
      repeats++;
      return;
    }
    if (repeats && line !== last) write(`(the failure before happened ${repeats} more times)`);
    write(line === last && repeats ? `${line} (${repeats} more times since the last report)` : line);
    [last, repeats, reportedAt] = [line, 0, now()];
  };
}

/**
 * The Pet Store for these keys on these stores, behind the demo faults the flags ask for, if any,
 * with the access log around it all; `telemetry` sees each request from the outside too, and
 * `front` (`--metrics`' scrape) answers on node:http before any of them.
 */
function demoPetStore(
  apiKeys: ReadonlyMap<string, Plan>,
  { delayMs, failRate, adminToken, adminBounds, log, trustProxy, proxyHeader, cors, banHold }: Settings,
  { storage, limitStore }: Stores,
  stdout: { write(text: string): unknown },
  {
    onError,
    telemetry,
    front,
  }: { readonly onError: (error: unknown) => void; readonly telemetry: Telemetry | undefined; readonly front?: NodeFront | undefined },
): { readonly petstore: PetStore; readonly seed: (generate: NonNullable<Settings['generate']>) => Promise<string> } {
  const config = resolveOptions({
    apiKeys,
    onError,
    ...(storage && { storage }),
    ...(limitStore && { limitStore }),
    ...(adminToken && { admin: { token: adminToken, ...adminBounds } }),
    trustProxy,
    proxyHeader,
    ...(cors && { cors }),
    ...banHold,
    ...(telemetry && { telemetry }),
  });
  const standingFaults: FaultRule[] = [];
  if (delayMs) standingFaults.push({ delayMs, times: 'always' });
  if (failRate) standingFaults.push({ status: 503, probability: failRate, times: 'always' });
  // The access log watches from outside the faults and the admin API: it shows the 503s they answer and the time they add.
  const observe = log && accessLog(log, [...apiKeys.keys(), ...(adminToken ? [adminToken] : [])], lineWriter(stdout));
  // With the admin API, the demo faults are faults like any other: listed, cleared, back after a reset.
  const composed = compose({ config, standingFaults, ...(observe && { observe }), front, layers: controlLayers });
  const { controls } = composed;
  // The admin API's store is fresh memory; a durable one is seeded on its first start only, so a
  // restart neither doubles the pets nor gives the same names new ids.
  const seed = async (generate: NonNullable<Settings['generate']>) => {
    const flag = `--generate ${generate.count}:${generate.seed}`;
    if (!controls && (await config.storage.list({ after: 0, limit: 1 })).length > 0) return `Pets: the store already holds some, so ${flag} added none.`;
    const pets = generatedPets(generate);
    const stored: Pet[] = controls ? await controls.seed(pets) : await seedPets(config.storage, pets);
    return `Pets: ${stored.length} generated (${flag}), ids ${stored[0]!.id} to ${stored.at(-1)!.id}.`;
  };
  return { petstore: toPetStore(composed, nodeListener), seed };
}

/**
 * Standard output for the access log, until whoever reads it goes away (`petstore-service | head`):
 * then one line on stderr, and the server goes on serving without a log, rather than dying of an
 * unhandled EPIPE with a stack trace. An error writing to stderr has nowhere to be told.
 */
function stdoutWhileOpen(): { write(text: string): unknown } {
  let open = true;
  process.stderr.on('error', () => {});
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!open) return;
    open = false;
    const why = error.code === 'EPIPE' ? 'its reader closed it' : (error.code ?? error.message);
    process.stderr.write(`petstore-service: stdout is gone (${why}); the server goes on, without the access log\n`);
  });
  return { write: (text) => open && process.stdout.write(text) };
}

/** Why the server could not start, in the user's terms: which port, which host. */
function startFailure(error: unknown, { port, host }: Settings): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE') return `port ${port} is already in use on ${host}; pick another with --port`;
  if (code === 'EACCES') return `port ${port} needs privileges this user lacks (ports below 1024 usually do); pick one from 1024 up with --port`;
  // ENOTFOUND: the name resolves to nothing; EADDRNOTAVAIL: an address no interface here has.
  if (code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL') return `cannot listen on host "${host}": no such interface/address`;
  return message;
}

/**
 * On SIGINT or SIGTERM: stop accepting, let in-flight requests finish, close the stores, and let
 * the process end (exit code 0). Not serve's `handleSignals`, which closes only the server: an
 * open database or Redis client would keep the process alive. A second signal ends it at once.
 */
function closeOnSignals(running: RunningPetStore, stores: Stores): void {
  const stop = () => {
    process.off('SIGINT', stop).off('SIGTERM', stop);
    running
      .close()
      .then(() => stores.close())
      .catch((error: unknown) => fail(1, `while stopping: ${(error as Error).message}`));
  };
  process.on('SIGINT', stop).on('SIGTERM', stop);
}

/** One line on stderr, no stack trace, and the exit code: 2 for what the user asked, 1 for what went wrong. */
function fail(exitCode: 1 | 2, message: string): never {
  process.stderr.write(`petstore-service: ${message.split('\n')[0]}\n`);
  process.exit(exitCode);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'init') {
    process.exitCode = runInit(process.argv.slice(3));
    return;
  }
  let settings: Settings;
  try {
    settings = readSettings(process.argv.slice(2), process.env);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!;
    // After a did-you-mean question, the pointer to --help reads as a sentence of its own.
    fail(2, `${message}${message.endsWith('?') ? ' ' : '; '}see --help`);
  }
  if (settings.help) {
    process.stdout.write(HELP);
    return;
  }
  if (settings.version) {
    process.stdout.write(`${__PETSTORE_VERSION__}\n`);
    return;
  }
  const apiKeys = new Map(settings.apiKeys);
  const generatedKey = apiKeys.size === 0 ? randomBytes(24).toString('base64url') : undefined;
  if (generatedKey) apiKeys.set(generatedKey, 'free');

  const onError = failureReporter((line) => process.stderr.write(`petstore-service: ${line}\n`));
  // Before the stores: a package --metrics needs and cannot find stops the command with nothing opened.
  const { metrics, telemetry } = await openCommandTelemetry(settings, onError).catch((error: unknown) =>
    error instanceof MissingPackages ? fail(2, error.message) : Promise.reject(error),
  );

  const stdout = stdoutWhileOpen();
  let stores: Stores;
  try {
    stores = await openStores(settings.stores, (line) => process.stderr.write(`petstore-service: ${line}\n`));
  } catch (error) {
    if (error instanceof StoreError) fail(2, error.message);
    throw error;
  }
  const { petstore, seed } = demoPetStore(apiKeys, settings, stores, stdout, { onError, telemetry, front: metrics?.front });
  let seeded: string | undefined;
  try {
    seeded = settings.generate && (await seed(settings.generate));
  } catch (error) {
    // A store that fails now would fail every request: say so before serving, as for a store that cannot open.
    fail(1, `--generate could not store the pets: ${(error as Error).message}`);
  }
  let running: RunningPetStore;
  try {
    running = await serve(petstore, { port: settings.port, hostname: settings.host });
  } catch (error) {
    fail(1, startFailure(error, settings));
  }
  closeOnSignals(running, stores);
  const listening = listeningOn(running.url, settings.host);
  const { url } = listening;
  const lines = [`Pet Store API listening on ${url}`, stores.banner, ...(seeded ? [seeded] : [])];
  if (settings.adminToken) {
    const { line, warning } = adminExposure(listening);
    if (warning) process.stderr.write(`petstore-service: ${warning}\n`);
    lines.push(line, `Dashboard on ${new URL('/__admin/', url).href} (sign in with the admin token)`);
  }
  if (metrics) lines.push(metricsExposure(listening, METRICS_PATH, settings.metricsToken !== undefined));
  if (settings.delayMs || settings.failRate) {
    const faults = [
      settings.delayMs && `every answer ${delayInWords(settings.delayMs)} late`,
      settings.failRate && `${settings.failRate * 100}% of answers 503`,
    ];
    lines.push(`Demo faults: ${faults.filter(Boolean).join(', ')}.`);
  }
  if (generatedKey) {
    lines.push(`API key (free plan, generated for this run): ${generatedKey}`);
    lines.push(`Try: curl -H "Authorization: Bearer ${generatedKey}" ${url}/pets`);
  } else {
    // Configured keys are secrets: say how many, never which.
    lines.push(`Using ${apiKeys.size} API key(s) from ${settings.keySource}.`);
  }
  stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => fail(1, (error as Error).message));
