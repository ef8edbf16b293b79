/** `petstore-service init <dir>`: writes a site any static server can serve (the demo page, start() as an ES module, the Pet Store as a service worker), or with --worker-only the worker alone. */
import { parseArgs } from 'node:util';
import type { GenerateOptions } from '../controls/index.ts';
import { nearestName, type Plan } from '../src/index.ts';
import { readApiKeys } from './api-keys.ts';
import { readGenerate } from './demo-flags.ts';
import { InitError, siteFiles, workerFile, writeFiles, WORKER, type Written } from './init-files.ts';

const HELP = `Usage: petstore-service init <dir> [options]

Writes a site into <dir> (created if missing) that any static server serves as it is
(python3 -m http.server, npx serve), with no bundler and nothing from a CDN:
  index.html                   the demo page: pets a page at a time (Link), add, reset,
                               an offline badge; plain JavaScript you can edit
  petstore-service-browser.js  start() of petstore-service/browser as an ES module
  ${WORKER}   the Pet Store API as a service worker, bundled with
                               everything it needs, pets in the browser's IndexedDB
Serve <dir> from localhost or https, where service workers run. After the first load,
the worker answers /v1 of the page's origin and keeps the site's files, so the page
and the API work offline too. The site works under a sub-path as well.

With --worker-only it writes only the worker, for an app with a bundler: serve <dir>
with your pages (public/ in Vite or Next.js) and start the worker from a page:

  import { start } from 'petstore-service/browser';
  await start({ url: '/${WORKER}' });

Then fetch('/v1/pets') from that page is answered by the worker, with or without a network.

Options:
  -k, --key <key[:plan]>  an API key the worker accepts, and its plan (default pro);
                          repeatable; the page calls the API with the first. Default:
                          demo-key:pro. Plans: free, pro, business,
                          enterprise:PER_MINUTE:PER_DAY. The key is visible to anyone who
                          can load the page: it is a demo key, not a secret
      --generate <count>[:<seed>]
                          the worker starts with this many realistic pets (1..10000),
                          the same as the command's for the same count and seed
                          (default 1): stored as it installs, only if its IndexedDB
                          holds no pets then, so a reset demo stays empty
      --worker-only       write only ${WORKER}, for a page of your own
  -f, --force             replace files of those names even if init did not write them
  -h, --help              show this help

A file init wrote is replaced (run init again after upgrading petstore-service, or to
change the keys); if any other file has one of those names, init writes nothing unless
--force is given. A wrong argument is named in one line on stderr, exit code 2.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  key: { type: 'string', short: 'k', multiple: true },
  force: { type: 'boolean', short: 'f' },
  'worker-only': { type: 'boolean' },
  generate: { type: 'string' },
} as const;

/** What the command line asks init to do. */
interface InitSettings {
  readonly help: boolean;
  readonly dir: string;
  readonly apiKeys: ReadonlyMap<string, Plan>;
  readonly force: boolean;
  readonly workerOnly: boolean;
  readonly generate: Required<GenerateOptions> | undefined;
}

function readInitSettings(argv: string[]): InitSettings {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    // parseArgs explains in several sentences; its first one names the option, and a misspelt one gets the nearest.
    const first = (error as Error).message.split(/\.\s|\n/)[0]!;
    const unknown = /^Unknown option '--([^']+)'$/.exec(first)?.[1];
    const near = unknown === undefined ? undefined : nearestName(unknown, Object.keys(OPTIONS));
    throw new InitError(near ? `${first}; did you mean --${near}?` : first);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true, dir: '', apiKeys: new Map(), force: false, workerOnly: false, generate: undefined };
  if (positionals.length !== 1) {
    throw new InitError(
      positionals.length === 0
        ? 'init needs the folder to write the site into: petstore-service init <dir>'
        : `init takes one folder, got ${positionals.length}: ${positionals.join(' ')}`,
    );
  }
  // A key without a plan is on pro, as the offline demo's key is.
  const entries = (values.key ?? ['demo-key']).map((entry) => (entry.includes(':') ? entry : `${entry}:pro`));
  let apiKeys: Map<string, Plan>;
  let generate: Required<GenerateOptions> | undefined;
  try {
    apiKeys = readApiKeys(entries.join(','), '--key');
    generate = readGenerate(values.generate);
  } catch (error) {
    throw new InitError((error as Error).message);
  }
  return { help: false, dir: positionals[0]!, apiKeys, force: values.force ?? false, workerOnly: values['worker-only'] ?? false, generate };
}

const planName = (plan: Plan) => (typeof plan === 'string' ? `${plan} plan` : `enterprise plan, ${plan.perMinute}/minute and ${plan.perDay}/day`);

const keyLines = (apiKeys: ReadonlyMap<string, Plan>) => [...apiKeys].map(([key, plan]) => `API key the worker accepts (${planName(plan)}): ${key}`);
/** What the worker starts with, and the rule that keeps a reset demo empty. */
const petLines = (generate: Required<GenerateOptions> | undefined) =>
  generate ? [`The worker starts with ${generate.count} generated pets (seed ${generate.seed}), stored as it installs if its IndexedDB holds no pets.`] : [];
const wrote = ({ path, replaced, file }: Written) => `${replaced ? 'Replaced' : 'Wrote'} ${path} (${file.about}).`;
/** `dir` as a shell word: as it is when the shell would keep it whole, else single-quoted. */
const shellWord = (dir: string) => (/^[\w@%+=:,./-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", `'\\''`)}'`);

/** The report on stdout for a site: each file, how to serve the folder, and the keys. */
function siteReport(dir: string, written: readonly Written[], { apiKeys, generate }: InitSettings): string {
  const python = `python3 -m http.server -d ${shellWord(dir)}`;
  return [
    ...written.map(wrote),
    `Serve ${dir.replace(/\/+$/, '')}/ from localhost (or https) and open it; after the first load, the page and the API work offline too:`,
    `  ${python}   (then open http://localhost:8000/)`,
    `  ${`npx serve ${shellWord(dir)}`.padEnd(python.length)}   (then open http://localhost:3000/)`,
    ...keyLines(apiKeys),
    ...petLines(generate),
    "The worker answers /v1 of the page's origin, wherever the folder is served.",
  ].join('\n');
}

/** The report on stdout for the worker alone: where it went, the two lines that start it from a bundled app, and the keys. */
function workerReport(dir: string, worker: Written, { apiKeys, generate }: InitSettings): string {
  const [firstKey] = apiKeys.keys();
  return [
    wrote(worker),
    `Start it from a page (the URL is for ${dir.replace(/\/+$/, '')}/ served at /, as public/ is in Vite and Next.js):`,
    `  import { start } from 'petstore-service/browser';`,
    `  await start({ url: '/${WORKER}' });`,
    ...keyLines(apiKeys),
    ...petLines(generate),
    `Try: await fetch('/v1/pets', { headers: { authorization: 'Bearer ${firstKey}' } })`,
  ].join('\n');
}

/**
 * Runs `petstore-service init` with the arguments after `init`; returns the exit code: 0, or
 * 2 with one line on stderr for anything the user asked that cannot be done.
 *
 * @example
 * process.exitCode = runInit(['public', '--key', 'demo-key:free']);
 */
export function runInit(argv: string[]): number {
  try {
    const settings = readInitSettings(argv);
    if (settings.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const { dir, apiKeys, force, generate } = settings;
    const report = settings.workerOnly
      ? workerReport(dir, writeFiles(dir, [workerFile(apiKeys, { generate })], { force, otherwise: 'pass --force to replace it' })[0]!, settings)
      : siteReport(
          dir,
          writeFiles(dir, siteFiles(apiKeys, generate), { force, otherwise: 'pass --force to replace it, or --worker-only to write only the worker' }),
          settings,
        );
    process.stdout.write(`${report}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof InitError)) throw error;
    // After a question (did you mean …?) a semicolon reads wrong, as the command's own lines know.
    process.stderr.write(`petstore-service init: ${error.message}${error.message.endsWith('?') ? '' : ';'} see petstore-service init --help\n`);
    return 2;
  }
}
