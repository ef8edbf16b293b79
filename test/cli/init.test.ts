/** `petstore-service init <dir>` (built): the site it writes, the worker alone with --worker-only, what it prints, --key, --generate, --force, --help, and one-line errors with exit code 2. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/index.js');
const WORKER = 'petstore-service-worker.js';
const MODULE = 'petstore-service-browser.js';
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

let cwd: string;
beforeEach(() => void (cwd = mkdtempSync(join(tmpdir(), 'petstore-init-cli-'))));
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

/** Runs the command in the temporary folder to its end (killed after 15 s: a hang is a code of null): exit code and output. */
function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { cwd, timeout: 15_000 }, (error, stdout, stderr) =>
      done({ code: error ? ((error.code as number | undefined) ?? null) : 0, stdout, stderr }),
    );
  });
}

const written = (dir = 'public', file = WORKER) => readFileSync(join(cwd, dir, file), 'utf8');
/** The options line of the worker init wrote, parsed. */
const workerOptions = (dir = 'public') => JSON.parse(/^const PETSTORE_WORKER_OPTIONS = (.*);$/m.exec(written(dir))![1]!) as Record<string, unknown>;
const kB = (file: string) => Math.round(Buffer.byteLength(file) / 1000);

describe('petstore-service init', () => {
  it('writes a site into a new folder (the page, start() as an ES module, the worker) and prints how to serve it and the key', async () => {
    const { code, stdout, stderr } = await run('init', 'public');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(
      [
        'Wrote public/index.html (the demo page).',
        `Wrote public/${MODULE} (start() as an ES module, ${kB(written('public', MODULE))} kB).`,
        `Wrote public/${WORKER} (petstore-service ${version}, ${kB(written())} kB).`,
        'Serve public/ from localhost (or https) and open it; after the first load, the page and the API work offline too:',
        '  python3 -m http.server -d public   (then open http://localhost:8000/)',
        '  npx serve public                   (then open http://localhost:3000/)',
        'API key the worker accepts (pro plan): demo-key',
        "The worker answers /v1 of the page's origin, wherever the folder is served.",
        '',
      ].join('\n'),
    );
    expect(readdirSync(join(cwd, 'public')).sort()).toEqual(['index.html', MODULE, WORKER]);

    // Each file opens with the words init knows its own files by.
    const page = written('public', 'index.html');
    expect(page.split('\n', 2)).toEqual([expect.stringMatching(/^<!-- index\.html, written by petstore-service init .* -->$/), '<!doctype html>']);
    expect(page).toContain("import { start } from './petstore-service-browser.js';");
    expect(page).toContain("start({ url: './petstore-service-worker.js' })");
    expect(page).toContain("const API_KEY = 'demo-key';");
    expect(page).not.toMatch(/https?:\/\/|\{\{/);

    // An ES module with nothing to resolve: no import of any kind, one export, start.
    const module = written('public', MODULE);
    expect(module.split('\n')[0]).toMatch(
      new RegExp(`^/\\* ${MODULE}, written by petstore-service init \\(petstore-service ${version.replaceAll('.', '\\.')}\\)`),
    );
    expect(module).not.toMatch(/\bimport\s*[{*("'`]/);
    expect(Object.keys(await import(join(cwd, 'public', MODULE)))).toEqual(['start']);

    // The worker caches the site's files under a name that changes with them and with the package.
    expect(workerOptions()).toEqual({
      apiKeys: { 'demo-key': 'pro' },
      site: { files: ['./', 'index.html', MODULE], version: expect.stringMatching(new RegExp(`^${version.replaceAll('.', '\\.')}-[0-9a-f]{12}$`)) },
    });
    expect(() => new Script(written())).not.toThrow();
  });

  it('writes only the worker with --worker-only, with no site to cache, and prints the lines a bundler resolves', async () => {
    const { code, stdout, stderr } = await run('init', 'public', '--worker-only');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const file = written();
    expect(stdout).toBe(
      [
        `Wrote public/${WORKER} (petstore-service ${version}, ${kB(file)} kB).`,
        'Start it from a page (the URL is for public/ served at /, as public/ is in Vite and Next.js):',
        "  import { start } from 'petstore-service/browser';",
        `  await start({ url: '/${WORKER}' });`,
        'API key the worker accepts (pro plan): demo-key',
        "Try: await fetch('/v1/pets', { headers: { authorization: 'Bearer demo-key' } })",
        '',
      ].join('\n'),
    );
    expect(readdirSync(join(cwd, 'public'))).toEqual([WORKER]);
    const [signature, strict, options] = file.split('\n');
    expect(signature).toMatch(new RegExp(`^/\\* ${WORKER}, written by petstore-service init \\(petstore-service ${version.replaceAll('.', '\\.')}\\)`));
    expect([strict, options]).toEqual(["'use strict';", 'const PETSTORE_WORKER_OPTIONS = {"apiKeys":{"demo-key":"pro"}};']);
    // A classic worker script: it compiles as a script (an import or export would not), and loads nothing else.
    expect(() => new Script(file)).not.toThrow();
    expect(file).not.toMatch(/\bimportScripts\(|\brequire\(/);
  });

  it('names a new cache version when the site changes, and keeps it when nothing did', async () => {
    await run('init', 'public');
    const first = workerOptions().site as { version: string };
    await run('init', 'public');
    expect(workerOptions().site).toEqual(first);
    await run('init', 'public', '--key', 'other-key');
    expect(written('public', 'index.html')).toContain("const API_KEY = 'other-key';");
    expect((workerOptions().site as { version: string }).version).not.toBe(first.version);
  });

  it('replaces the site files it wrote, and refuses before writing anything when one of them is not its own', async () => {
    await run('init', 'public');
    const again = await run('init', 'public');
    expect(
      again.stdout
        .split('\n')
        .slice(0, 3)
        .map((line) => line.split(' (')[0]),
    ).toEqual(['Replaced public/index.html', `Replaced public/${MODULE}`, `Replaced public/${WORKER}`]);

    rmSync(join(cwd, 'public'), { recursive: true });
    mkdirSync(join(cwd, 'public'));
    writeFileSync(join(cwd, 'public/index.html'), '<!doctype html><title>my app</title>\n');
    const refused = await run('init', 'public');
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'petstore-service init: public/index.html exists and was not written by petstore-service init; pass --force to replace it, or --worker-only to write only the worker; see petstore-service init --help\n',
    });
    expect(readdirSync(join(cwd, 'public'))).toEqual(['index.html']);

    // --worker-only leaves the app's page alone.
    expect((await run('init', 'public', '--worker-only')).code).toBe(0);
    expect(readdirSync(join(cwd, 'public')).sort()).toEqual(['index.html', WORKER]);
    expect(written('public', 'index.html')).toBe('<!doctype html><title>my app</title>\n');

    const forced = await run('init', 'public', '--force');
    expect(forced.stdout.split('\n', 1)[0]).toBe('Replaced public/index.html (the demo page).');
    expect(written('public', 'index.html')).toContain('written by petstore-service init');
  });

  it('quotes a folder the shell would split in the lines that serve it', async () => {
    const { stdout } = await run('init', 'my site');
    expect(stdout).toContain("  python3 -m http.server -d 'my site'   (then open http://localhost:8000/)\n");
    expect(stdout).toContain("  npx serve 'my site'                   (then open http://localhost:3000/)\n");
  });

  it('takes the keys the worker accepts from --key, on the pro plan unless one is named', async () => {
    const { code, stdout } = await run('init', 'web/static', '--key', 'team-key:free', '-k', 'ci-key', '--key=big:enterprise:1000:50000');
    expect(code).toBe(0);
    expect(stdout).toContain('API key the worker accepts (free plan): team-key\n');
    expect(stdout).toContain('API key the worker accepts (pro plan): ci-key\n');
    expect(stdout).toContain('API key the worker accepts (enterprise plan, 1000/minute and 50000/day): big\n');
    expect(workerOptions('web/static').apiKeys).toEqual({ 'team-key': 'free', 'ci-key': 'pro', big: { perMinute: 1000, perDay: 50000 } });
    // The page calls the API with the first key.
    expect(written('web/static', 'index.html')).toContain("const API_KEY = 'team-key';");

    const workerOnly = await run('init', 'app', '--worker-only', '-k', 'ci-key:free');
    expect(workerOnly.stdout).toContain("authorization: 'Bearer ci-key'");
    expect(written('app').split('\n')[2]).toBe('const PETSTORE_WORKER_OPTIONS = {"apiKeys":{"ci-key":"free"}};');
  });

  it('writes --generate into the options line of the site’s worker and of the worker alone, seed 1 unless named, and says the worker starts with them', async () => {
    const site = await run('init', 'public', '--generate', '25:7');
    expect(site.code).toBe(0);
    expect(workerOptions()).toEqual({ apiKeys: { 'demo-key': 'pro' }, generate: { count: 25, seed: 7 }, site: expect.any(Object) });
    expect(site.stdout).toContain(
      'API key the worker accepts (pro plan): demo-key\nThe worker starts with 25 generated pets (seed 7), stored as it installs if its IndexedDB holds no pets.\n',
    );

    const workerOnly = await run('init', 'app', '--worker-only', '--generate=3');
    expect(workerOnly.code).toBe(0);
    expect(written('app').split('\n')[2]).toBe('const PETSTORE_WORKER_OPTIONS = {"apiKeys":{"demo-key":"pro"},"generate":{"count":3,"seed":1}};');
    expect(workerOnly.stdout).toContain('\nThe worker starts with 3 generated pets (seed 1), stored as it installs if its IndexedDB holds no pets.\n');
    // Without the flag, the options line names no pets.
    await run('init', 'app', '--worker-only');
    expect(workerOptions('app')).toEqual({ apiKeys: { 'demo-key': 'pro' } });
  });

  it('replaces a worker it wrote before, and leaves any other file of that name alone unless --force is given', async () => {
    await run('init', 'public', '--worker-only');
    const again = await run('init', 'public', '--worker-only', '--key', 'new-key');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^Replaced public/${WORKER} `));
    expect(written()).toContain('"new-key":"pro"');

    writeFileSync(join(cwd, 'public', WORKER), '// the app’s own worker\n');
    const refused = await run('init', 'public', '--worker-only');
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `petstore-service init: public/${WORKER} exists and was not written by petstore-service init; pass --force to replace it; see petstore-service init --help\n`,
    });
    expect(written()).toBe('// the app’s own worker\n');

    const forced = await run('init', 'public', '--worker-only', '--force');
    expect(forced.code).toBe(0);
    expect(written()).toContain('"demo-key":"pro"');
  });

  it('shows its usage for init --help, and the main help names it', async () => {
    const help = await run('init', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: petstore-service init <dir> \[options\]\n/);
    expect(help.stdout).toContain('-k, --key <key[:plan]>');
    expect(help.stdout).toContain('-f, --force');
    expect(help.stdout).toContain('    --worker-only');
    expect(help.stdout).toContain('    --generate <count>[:<seed>]');
    expect((await run('--help')).stdout).toContain('petstore-service init <dir>');
  });

  it.each([
    [[], 'init needs the folder to write the site into: petstore-service init <dir>'],
    [['a', 'b'], 'init takes one folder, got 2: a b'],
    [['public', '--port', '80'], "Unknown option '--port'"],
    [['public', '--froce'], "Unknown option '--froce'; did you mean --force?"],
    [['public', '--worker-ony'], "Unknown option '--worker-ony'; did you mean --worker-only?"],
    [['public', '--key'], "Option '-k, --key <value>' argument missing"],
    [['public', '--force=yes'], "Option '-f, --force' does not take an argument"],
    [['public', '--worker-only=yes'], "Option '--worker-only' does not take an argument"],
    [['public', '--key', 'k:gold'], '--key: API key entry 1: an unknown plan; plans: free, pro, business or enterprise:PER_MINUTE:PER_DAY'],
    [
      ['public', '--generate', '0'],
      '--generate must be COUNT or COUNT:SEED, a count from 1 to 10000 and a seed from 0 to 4294967295, e.g. --generate 25:7, got "0"',
    ],
    [
      ['public', '--worker-only', '--generate', '25:-1'],
      '--generate must be COUNT or COUNT:SEED, a count from 1 to 10000 and a seed from 0 to 4294967295, e.g. --generate 25:7, got "25:-1"',
    ],
    [
      ['public', '--generate', '10001'],
      '--generate must be COUNT or COUNT:SEED, a count from 1 to 10000 and a seed from 0 to 4294967295, e.g. --generate 25:7, got "10001"',
    ],
    [['public', '--generate'], "Option '--generate <value>' argument missing"],
    [['public', '--key', 'not a token'], '--key: API key entry 1: the key may hold only letters, digits and - . _ ~ + / (it is sent in a Bearer header)'],
  ])('refuses %j in one line on stderr with exit code 2', async (args, message) => {
    const joint = message.endsWith('?') ? '' : ';';
    expect(await run('init', ...args)).toEqual({ code: 2, stdout: '', stderr: `petstore-service init: ${message}${joint} see petstore-service init --help\n` });
  });

  // Node's recursive mkdir spins there forever: /proc has the parent, and takes no new directories.
  it.skipIf(process.platform !== 'linux')('answers init /proc/anything at once, naming the folder that takes no new ones', async () => {
    expect(await run('init', '/proc/anything')).toEqual({
      code: 2,
      stdout: '',
      stderr: `petstore-service init: cannot write /proc/anything/index.html: /proc takes no new directories; name a folder you can write to; see petstore-service init --help\n`,
    });
  });

  it('refuses a <dir> that is a file, or holds a folder of the worker’s name, with exit code 2', async () => {
    writeFileSync(join(cwd, 'notes.txt'), 'hello');
    const onFile = await run('init', 'notes.txt');
    expect(onFile).toEqual({ code: 2, stdout: '', stderr: 'petstore-service init: notes.txt is a file, not a folder; see petstore-service init --help\n' });
    expect(statSync(join(cwd, 'notes.txt')).isFile()).toBe(true);

    await run('init', join('public', WORKER)); // writes public/petstore-service-worker.js/petstore-service-worker.js
    const onFolder = await run('init', 'public');
    expect(onFolder).toMatchObject({
      code: 2,
      stderr: `petstore-service init: public/${WORKER} is a folder, not a file init can write; see petstore-service init --help\n`,
    });
  });
});
