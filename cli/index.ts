#!/usr/bin/env node
/** The petstore-service command: serves the API over Node http, configured by flags and env. */
import { randomBytes } from 'node:crypto';
import { compose } from '../compose/compose.ts';
import type { PetStore } from '../compose/handler.ts';
import { toPetStore } from '../compose/pet-store.ts';
import type { FaultRule } from '../controls/faults.ts';
import { controlLayers } from '../controls/layers.ts';
import { nodeListener } from '../hosts/node/listener.ts';
import { PetStoreWarning, resolveOptions, seedPets, type Pet, type Plan, type Telemetry } from '../src/index.ts';
import { generatedPets } from '../controls/generated-pets.ts';
import { delayInWords } from './demo-flags.ts';
import { accessLog, lineWriter } from './access-log.ts';
import { readSettings, type Settings } from './settings.ts';
import { openStores, StoreError, type Stores } from './stores.ts';
import { serve, type RunningPetStore } from '../runtimes/node/index.ts';
import { runInit } from './init.ts';
import { adminExposure, listeningOn, type Listening } from './listening.ts';
import { commandTelemetry, METRICS_PATH, MissingPackages, openMetrics, withMetricsPath, type CommandMetrics } from './metrics.ts';

/** The version this file was built from: tsup's `define` puts package.json's version here. */
declare const __PETSTORE_VERSION__: string;

const HELP = `Usage: petstore-service [options]
       petstore-service init <dir>   (write an offline demo site, or the worker alone: init --help)

Serves the Pet Store API over HTTP under /v1. Pets and rate-limit counters live in
memory unless --data, --database-url or --redis says where to keep them.

Options:
  -p, --port <port>    TCP port (env PORT, default 8080; 0 picks a free one)
      --host <host>    interface to bind (env HOST, default 127.0.0.1)
  -k, --key <k:plan>   an API key and its plan; repeatable (env PETSTORE_API_KEYS,
                       comma-separated). Plans: free, pro, business,
                       enterprise:PER_MINUTE:PER_DAY. Without keys, one free key is
                       generated and printed.
      --data <dir>     keep pets and limits in PGlite (PostgreSQL in WebAssembly) in
                       this directory, created if missing (the first start takes a
                       few seconds). Needs @electric-sql/pglite
      --database-url <url>
                       keep pets and limits in PostgreSQL (env DATABASE_URL), shared
                       by every instance using it; tables are created on start.
                       Needs postgres. Not with --data
      --redis <url>    keep limits in Redis (env REDIS_URL), and pets too unless
                       --data or --database-url is given. Needs redis
      --trust-proxy <n|ranges>
                       behind a proxy: believe X-Forwarded-For from this many proxies
                       in front, or from these addresses and CIDR ranges, comma-
                       separated (env PETSTORE_TRUST_PROXY). Default: none, the peer
                       is the caller
      --proxy-header <name>
                       with --trust-proxy: the one header they are believed in,
                       x-forwarded-for (default) or forwarded; the other is
                       ignored (env PETSTORE_PROXY_HEADER)
      --admin-token <t>
                       turn on the admin API under /__admin (env PETSTORE_ADMIN_TOKEN, 16+
                       characters: letters, digits, -._~+/, = at the end): reset, seed,
                       clock, faults and the request journal over HTTP, with
                       Authorization: Bearer <t>. In-memory stores only
      --sandboxes <n>  with --admin-token: the most sandboxes (worlds of their own, opened
                       with POST /__admin/sandboxes) at once, default 1000
      --sandbox-idle <minutes>
                       with --admin-token: delete a sandbox unused this long, default 30
      --journal <n>    with --admin-token: the requests each journal keeps, default 10000
      --delay <ms|min-max>
                       for demos: answer every request this much later; a range
                       (100-400) draws each request's delay from it
      --fail-rate <r>  for demos: answer this share of requests (0..1) with 503
      --generate <count>[:<seed>]
                       start with this many realistic pets (1..10000), the same for
                       the same count and seed (default 1) everywhere. With --data,
                       --database-url or --redis: only if the store holds no pets
      --log <format>   the access log on stdout, one line per request: text
                       (default; GET /v1/pets?limit=7 200 1.2ms 127.0.0.1) or json
                       (one object per line). Never a key or a header value
      --metrics        serve Prometheus text at GET /metrics on the same port
                       (env PETSTORE_METRICS=1): requests by method, route and
                       status with their durations, refusals, process CPU and
                       memory. No key guards it: keep the port private. Needs
                       @opentelemetry/api, @opentelemetry/sdk-metrics,
                       @opentelemetry/exporter-prometheus, @opentelemetry/host-metrics
  -q, --quiet          no access log (the lines printed on start and errors stay)
  -v, --version        print the version
  -h, --help           show this help

Examples:
  # on http://127.0.0.1:8080/v1, with a generated free-plan key it prints
  petstore-service
  # on port 3000, with two keys of your own, and no access log
  petstore-service --port 3000 --key dev-key:pro --key ci-key:free --quiet
  # keys from the environment, on every interface, JSON log lines (in a container)
  PETSTORE_API_KEYS=k1:free,k2:enterprise:100000:10000000 petstore-service --host 0.0.0.0 --log json
  # a fake backend for end-to-end tests, controlled over HTTP under /__admin (make your
  # own token: openssl rand -base64 24)
  PETSTORE_API_KEYS=e2e-key:free PETSTORE_ADMIN_TOKEN=my-admin-token-0123 petstore-service
  # a slow, flaky backend with 200 pets for a demo: each answer 100 to 400 ms late, one in ten a 503
  petstore-service --generate 200 --delay 100-400 --fail-rate 0.1
  # pets and limits kept in ./petstore-data across restarts
  petstore-service --data ./petstore-data
  # pets and limits in PostgreSQL, shared by every instance started this way
  DATABASE_URL=postgres://petstore:secret@db.internal:5432/petstore petstore-service
  # pets in PostgreSQL, limits in Redis
  petstore-service --database-url postgres://petstore:secret@db.internal/petstore --redis redis://cache.internal:6379
  # pets and limits in Redis
  REDIS_URL=redis://:secret@cache.internal:6379 petstore-service

Flags show in ps to every user of the machine: give keys and the admin token in
PETSTORE_API_KEYS and PETSTORE_ADMIN_TOKEN anywhere but your own machine.

A store that cannot be reached or opened is named in one line on stderr (host and
port, never a password), with exit code 2.
`;

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
 * with the access log around it all; `telemetry` sees each request from the outside too.
 */
function demoPetStore(
  apiKeys: ReadonlyMap<string, Plan>,
  { delayMs, failRate, adminToken, adminBounds, log, trustProxy, proxyHeader }: Settings,
  { storage, limitStore }: Stores,
  stdout: { write(text: string): unknown },
  { onError, telemetry }: { readonly onError: (error: unknown) => void; readonly telemetry: Telemetry | undefined },
): { readonly petstore: PetStore; readonly seed: (generate: NonNullable<Settings['generate']>) => Promise<string> } {
  const config = resolveOptions({
    apiKeys,
    onError,
    ...(storage && { storage }),
    ...(limitStore && { limitStore }),
    ...(adminToken && { admin: { token: adminToken, ...adminBounds } }),
    trustProxy,
    proxyHeader,
    ...(telemetry && { telemetry }),
  });
  const standingFaults: FaultRule[] = [];
  if (delayMs) standingFaults.push({ delayMs, times: 'always' });
  if (failRate) standingFaults.push({ status: 503, probability: failRate, times: 'always' });
  // The access log watches from outside the faults and the admin API: it shows the 503s they answer and the time they add.
  const observe = log && accessLog(log, [...apiKeys.keys(), ...(adminToken ? [adminToken] : [])], lineWriter(stdout));
  // With the admin API, the demo faults are faults like any other: listed, cleared, back after a reset.
  const composed = compose({ config, standingFaults, ...(observe && { observe }), layers: controlLayers });
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

/** The banner's line for `--metrics`: where Prometheus scrapes, and that it takes no key. */
function metricsLine({ url, address, reach }: Listening): string {
  const where =
    reach === 'every interface' ? ', listening on every interface' : reach === 'beyond loopback' ? `, listening on ${address}, beyond loopback` : '';
  return `Metrics for Prometheus on ${new URL(METRICS_PATH, url).href}${where} (no key: anyone who reaches the port can read them)`;
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
  let metrics: CommandMetrics | undefined;
  try {
    metrics = settings.metrics ? await openMetrics(onError) : undefined;
  } catch (error) {
    if (error instanceof MissingPackages) fail(2, error.message);
    throw error;
  }
  const telemetry = await commandTelemetry(metrics?.meterProvider);

  const stdout = stdoutWhileOpen();
  let stores: Stores;
  try {
    stores = await openStores(settings.stores, (line) => process.stderr.write(`petstore-service: ${line}\n`));
  } catch (error) {
    if (error instanceof StoreError) fail(2, error.message);
    throw error;
  }
  const { petstore, seed } = demoPetStore(apiKeys, settings, stores, stdout, { onError, telemetry });
  const handler = metrics ? withMetricsPath(petstore, metrics) : petstore;
  let seeded: string | undefined;
  try {
    seeded = settings.generate && (await seed(settings.generate));
  } catch (error) {
    // A store that fails now would fail every request: say so before serving, as for a store that cannot open.
    fail(1, `--generate could not store the pets: ${(error as Error).message}`);
  }
  let running: RunningPetStore;
  try {
    running = await serve(handler, { port: settings.port, hostname: settings.host });
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
    lines.push(line);
  }
  if (metrics) lines.push(metricsLine(listening));
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
