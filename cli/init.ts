/** `petstore-service init <dir>`: writes the Pet Store as one self-contained service worker into the folder a page is served from. */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Plan } from '../src/index.ts';
import { readApiKeys } from './api-keys.ts';
import { DirectoryProblem, directoryProblem, makeDirectory } from './make-directory.ts';

/** The version this file was built from: tsup's `define` puts package.json's version here. */
declare const __PETSTORE_VERSION__: string;

const FILE = 'petstore-service-worker.js';
/** The first words of every file init writes: how it knows a file it may replace without --force. */
const SIGNATURE = `/* ${FILE}, written by petstore-service init`;

const HELP = `Usage: petstore-service init <dir> [options]

Writes ${FILE} into <dir> (created if missing): the Pet Store
API as a service worker, bundled with everything it needs, pets in the browser's
IndexedDB. Serve <dir> with your pages (public/ in Vite or Next.js) and start the
worker from a page:

  import { start } from 'petstore-service/browser';
  await start({ url: '/${FILE}' });

Then fetch('/v1/pets') from that page is answered by the worker, with or without a network.

Options:
  -k, --key <key[:plan]>  an API key the worker accepts, and its plan (default pro);
                          repeatable. Default: demo-key:pro. Plans: free, pro, business,
                          enterprise:PER_MINUTE:PER_DAY. The key is visible to anyone who
                          can load the page: it is a demo key, not a secret
  -f, --force             replace <dir>/${FILE} even if init did not write it
  -h, --help              show this help

A ${FILE} that init wrote is replaced (run init again after upgrading
petstore-service, or to change the keys); any other file of that name is left alone
unless --force is given. A wrong argument is named in one line on stderr, exit code 2.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  key: { type: 'string', short: 'k', multiple: true },
  force: { type: 'boolean', short: 'f' },
} as const;

/** What the user asked that cannot be done: one line on stderr, exit code 2. */
class InitError extends Error {}

/** What the command line asks init to do. */
interface InitSettings {
  readonly help: boolean;
  readonly dir: string;
  readonly apiKeys: ReadonlyMap<string, Plan>;
  readonly force: boolean;
}

function readInitSettings(argv: string[]): InitSettings {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    // parseArgs explains in several sentences; its first one names the option.
    throw new InitError((error as Error).message.split(/\.\s|\n/)[0]!);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true, dir: '', apiKeys: new Map(), force: false };
  if (positionals.length !== 1) {
    throw new InitError(
      positionals.length === 0
        ? `init needs the folder to write ${FILE} into: petstore-service init <dir>`
        : `init takes one folder, got ${positionals.length}: ${positionals.join(' ')}`,
    );
  }
  // A key without a plan is on pro, as the offline demo's key is.
  const entries = (values.key ?? ['demo-key']).map((entry) => (entry.includes(':') ? entry : `${entry}:pro`));
  let apiKeys: Map<string, Plan>;
  try {
    apiKeys = readApiKeys(entries.join(','), '--key');
  } catch (error) {
    throw new InitError((error as Error).message);
  }
  return { help: false, dir: positionals[0]!, apiKeys, force: values.force ?? false };
}

/** The bundled worker in the installed package (dist/worker/), found through the package's own name. */
function workerTemplate(): string {
  const root = dirname(createRequire(import.meta.url).resolve('petstore-service/package.json'));
  return readFileSync(join(root, 'dist/worker', FILE), 'utf8');
}

/**
 * The file's text: the signature line, the options line the bundle reads, then the bundle. The
 * bundle's own "use strict" would no longer open the script, so the file opens with one.
 */
function workerFile(apiKeys: ReadonlyMap<string, Plan>): string {
  const options = JSON.stringify({ apiKeys: Object.fromEntries(apiKeys) });
  return [
    `${SIGNATURE} (petstore-service ${__PETSTORE_VERSION__}): the Pet Store API under /v1 of its origin, pets in IndexedDB. Run init again to change or update it. */`,
    `'use strict';`,
    `const PETSTORE_WORKER_OPTIONS = ${options};`,
    workerTemplate(),
  ].join('\n');
}

/** Writes the worker; returns whether it replaced a file. */
function writeWorker(path: string, text: string, force: boolean): boolean {
  if (existsSync(dirname(path)) && !statSync(dirname(path)).isDirectory()) throw new InitError(`${dirname(path)} is a file, not a folder`);
  const existed = existsSync(path);
  if (existed && statSync(path).isDirectory()) throw new InitError(`${path} is a folder, not a file init can write`);
  if (existed && !force && !readFileSync(path, 'utf8').startsWith(SIGNATURE)) {
    throw new InitError(`${path} exists and was not written by petstore-service init; pass --force to replace it`);
  }
  try {
    makeDirectory(dirname(path));
    writeFileSync(path, text);
  } catch (error) {
    const problem = error instanceof DirectoryProblem ? error : directoryProblem(dirname(path), error, path);
    throw new InitError(`cannot write ${path}: ${problem.message}; name a folder you can write to`);
  }
  return existed;
}

const planName = (plan: Plan) => (typeof plan === 'string' ? `${plan} plan` : `enterprise plan, ${plan.perMinute}/minute and ${plan.perDay}/day`);

/** The report on stdout: where the file went, the two lines that start it, and the keys to call it with. */
function report(path: string, replaced: boolean, bytes: number, apiKeys: ReadonlyMap<string, Plan>): string {
  const [firstKey] = apiKeys.keys();
  return [
    `${replaced ? 'Replaced' : 'Wrote'} ${path} (petstore-service ${__PETSTORE_VERSION__}, ${Math.round(bytes / 1000)} kB).`,
    `Start it from a page (the URL is for ${dirname(path)}/ served at /, as public/ is in Vite and Next.js):`,
    `  import { start } from 'petstore-service/browser';`,
    `  await start({ url: '/${FILE}' });`,
    ...[...apiKeys].map(([key, plan]) => `API key the worker accepts (${planName(plan)}): ${key}`),
    `Try: await fetch('/v1/pets', { headers: { authorization: 'Bearer ${firstKey}' } })`,
  ].join('\n');
}

/**
 * Runs `petstore-service init` with the arguments after `init`; returns the exit code: 0, or
 * 2 with one line on stderr for anything the user asked that cannot be done.
 */
export function runInit(argv: string[]): number {
  try {
    const settings = readInitSettings(argv);
    if (settings.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const path = join(settings.dir, FILE);
    const text = workerFile(settings.apiKeys);
    const replaced = writeWorker(path, text, settings.force);
    process.stdout.write(`${report(path, replaced, Buffer.byteLength(text), settings.apiKeys)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof InitError)) throw error;
    process.stderr.write(`petstore-service init: ${error.message}; see petstore-service init --help\n`);
    return 2;
  }
}
