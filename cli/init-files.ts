/** The files `petstore-service init` writes (the demo page, start() as an ES module, the worker), how it knows its own, and writing them. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { GenerateOptions } from '../controls/index.ts';
import type { SiteFiles } from '../runtimes/service-worker/site-cache.ts';
import type { Plan } from '../src/index.ts';
import { DirectoryProblem, directoryProblem, makeDirectory } from './make-directory.ts';

/** The version this file was built from: tsup's `define` puts package.json's version here. */
declare const __PETSTORE_VERSION__: string;

/**
 * The worker's file name: the one file `init --worker-only` writes.
 *
 * @example
 * const line = `  await start({ url: '/${WORKER}' });`;
 */
export const WORKER = 'petstore-service-worker.js';
const MODULE = 'petstore-service-browser.js';
const PAGE = 'index.html';

/**
 * What the user asked that cannot be done: one line on stderr, exit code 2.
 *
 * @example
 * throw new InitError('init takes one folder, got 2: a b');
 */
export class InitError extends Error {}

/** A file init writes: its name in `<dir>`, its text, and what the report says it is. */
interface InitFile {
  readonly name: string;
  readonly text: string;
  readonly about: string;
}

/** The first words of every file init writes: how it knows a file it may replace without --force. */
const signature = (name: string) =>
  name.endsWith('.html') ? `<!-- ${name}, written by petstore-service init` : `/* ${name}, written by petstore-service init`;
/** The signature line in full, in the file's own comment syntax. */
const firstLine = (name: string, what: string) =>
  `${signature(name)} (petstore-service ${__PETSTORE_VERSION__}): ${what}. Run init again to change or update it. ${name.endsWith('.html') ? '-->' : '*/'}`;

/** A file of the installed package's dist/ (the worker, the site's template), found through the package's own name. */
function built(path: string): string {
  const root = dirname(createRequire(import.meta.url).resolve('petstore-service/package.json'));
  return readFileSync(join(root, 'dist', path), 'utf8');
}

/**
 * The worker: the signature line, the options line the bundle reads, then the bundle. The bundle's
 * own "use strict" would no longer open the script, so the file opens with one. `generate`, when
 * given, is the pets the worker stores as it installs over an empty IndexedDB; `site` what it
 * keeps for offline use.
 *
 * @example
 * writeFiles('public', [workerFile(new Map([['demo-key', 'pro']]), { generate: { count: 25, seed: 7 } })], { force: false, otherwise: 'pass --force to replace it' });
 */
export function workerFile(apiKeys: ReadonlyMap<string, Plan>, { generate, site }: { generate?: GenerateOptions; site?: SiteFiles } = {}): InitFile {
  const options = JSON.stringify({ apiKeys: Object.fromEntries(apiKeys), ...(generate && { generate }), ...(site && { site }) });
  const text = [
    firstLine(WORKER, 'the Pet Store API under /v1 of its origin, pets in IndexedDB'),
    `'use strict';`,
    `const PETSTORE_WORKER_OPTIONS = ${options};`,
    built(`worker/${WORKER}`),
  ].join('\n');
  return { name: WORKER, text, about: `petstore-service ${__PETSTORE_VERSION__}, ${Math.round(Buffer.byteLength(text) / 1000)} kB` };
}

/**
 * The site: the demo page calling the API with the first key, start() as an ES module, and the
 * worker told to keep both (and to start with `generate`'s pets, when given). The cache's version
 * is the package's plus a hash of the two files, so an upgrade or a new key replaces the cached
 * site, and running init again unchanged keeps it.
 *
 * @example
 * writeFiles('site', siteFiles(new Map([['demo-key', 'pro']]), { count: 25, seed: 7 }), { force: false, otherwise: 'pass --force to replace it' });
 */
export function siteFiles(apiKeys: ReadonlyMap<string, Plan>, generate?: GenerateOptions): InitFile[] {
  const [firstKey = ''] = apiKeys.keys();
  // Keys hold only token characters (readApiKeys checks), so one sits in a quoted string as it is.
  const page = `${firstLine(PAGE, 'the Pet Store demo page')}\n${built(`site/${PAGE}`).replace(`'{{API_KEY}}'`, () => `'${firstKey}'`)}`;
  const module = `${firstLine(MODULE, 'start() of petstore-service/browser as an ES module')}\n${built(`site/${MODULE}`)}`;
  const hash = createHash('sha256').update(page).update('\0').update(module).digest('hex').slice(0, 12);
  const site: SiteFiles = { files: ['./', PAGE, MODULE], version: `${__PETSTORE_VERSION__}-${hash}` };
  return [
    { name: PAGE, text: page, about: 'the demo page' },
    { name: MODULE, text: module, about: `start() as an ES module, ${Math.round(Buffer.byteLength(module) / 1000)} kB` },
    workerFile(apiKeys, { generate, site }),
  ];
}

/**
 * A file written, and whether it replaced one.
 *
 * @example
 * const line = ({ path, replaced }: Written) => `${replaced ? 'Replaced' : 'Wrote'} ${path}`;
 */
export interface Written {
  readonly path: string;
  readonly replaced: boolean;
  readonly file: InitFile;
}

/**
 * Writes `files` into `dir` (created if missing), after checking them all: a file init did not
 * write stops everything unless `force`, so a refusal leaves no half-written site. `otherwise`
 * ends that refusal with what the user can do instead.
 *
 * @example
 * for (const { path, replaced } of writeFiles('public', siteFiles(keys), { force: false, otherwise: 'pass --force to replace it' })) console.log(replaced, path);
 */
export function writeFiles(dir: string, files: readonly InitFile[], { force, otherwise }: { force: boolean; otherwise: string }): Written[] {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InitError(`${dir} is a file, not a folder`);
  const planned = files.map((file) => {
    const path = join(dir, file.name);
    const replaced = existsSync(path);
    if (replaced && statSync(path).isDirectory()) throw new InitError(`${path} is a folder, not a file init can write`);
    if (replaced && !force && !readFileSync(path, 'utf8').startsWith(signature(file.name))) {
      throw new InitError(`${path} exists and was not written by petstore-service init; ${otherwise}`);
    }
    return { path, replaced, file };
  });
  for (const { path, file } of planned) {
    try {
      makeDirectory(dir);
      writeFileSync(path, file.text);
    } catch (error) {
      const problem = error instanceof DirectoryProblem ? error : directoryProblem(dir, error, path);
      throw new InitError(`cannot write ${path}: ${problem.message}; name a folder you can write to`);
    }
  }
  return planned;
}
