/** `petstore-service init <dir>` (built): the file it writes, what it prints, --key, --force, --help, and one-line errors with exit code 2. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/index.js');
const WORKER = 'petstore-service-worker.js';
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

const written = (dir = 'public') => readFileSync(join(cwd, dir, WORKER), 'utf8');

describe('petstore-service init', () => {
  it('writes one self-contained classic script into a new folder and prints how to start it and the key it accepts', async () => {
    const { code, stdout, stderr } = await run('init', 'public');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const file = written();
    expect(stdout).toBe(
      [
        `Wrote public/${WORKER} (petstore-service ${version}, ${Math.round(Buffer.byteLength(file) / 1000)} kB).`,
        'Start it from a page (the URL is for public/ served at /, as public/ is in Vite and Next.js):',
        "  import { start } from 'petstore-service/browser';",
        `  await start({ url: '/${WORKER}' });`,
        'API key the worker accepts (pro plan): demo-key',
        "Try: await fetch('/v1/pets', { headers: { authorization: 'Bearer demo-key' } })",
        '',
      ].join('\n'),
    );
    const [signature, strict, options] = file.split('\n');
    expect(signature).toMatch(new RegExp(`^/\\* ${WORKER}, written by petstore-service init \\(petstore-service ${version.replaceAll('.', '\\.')}\\)`));
    expect([strict, options]).toEqual(["'use strict';", 'const PETSTORE_WORKER_OPTIONS = {"apiKeys":{"demo-key":"pro"}};']);
    // A classic worker script: it compiles as a script (an import or export would not), and loads nothing else.
    expect(() => new Script(file)).not.toThrow();
    expect(file).not.toMatch(/\bimportScripts\(|\brequire\(/);
  });

  it('takes the keys the worker accepts from --key, on the pro plan unless one is named', async () => {
    const { code, stdout } = await run('init', 'web/static', '--key', 'team-key:free', '-k', 'ci-key', '--key=big:enterprise:1000:50000');
    expect(code).toBe(0);
    expect(stdout).toContain('API key the worker accepts (free plan): team-key\n');
    expect(stdout).toContain('API key the worker accepts (pro plan): ci-key\n');
    expect(stdout).toContain('API key the worker accepts (enterprise plan, 1000/minute and 50000/day): big\n');
    expect(stdout).toContain("authorization: 'Bearer team-key'");
    expect(written('web/static').split('\n')[2]).toBe(
      'const PETSTORE_WORKER_OPTIONS = {"apiKeys":{"team-key":"free","ci-key":"pro","big":{"perMinute":1000,"perDay":50000}}};',
    );
  });

  it('replaces a worker it wrote before, and leaves any other file of that name alone unless --force is given', async () => {
    await run('init', 'public');
    const again = await run('init', 'public', '--key', 'new-key');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^Replaced public/${WORKER} `));
    expect(written()).toContain('"new-key":"pro"');

    writeFileSync(join(cwd, 'public', WORKER), '// the app’s own worker\n');
    const refused = await run('init', 'public');
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `petstore-service init: public/${WORKER} exists and was not written by petstore-service init; pass --force to replace it; see petstore-service init --help\n`,
    });
    expect(written()).toBe('// the app’s own worker\n');

    const forced = await run('init', 'public', '--force');
    expect(forced.code).toBe(0);
    expect(written()).toContain('"demo-key":"pro"');
  });

  it('shows its usage for init --help, and the main help names it', async () => {
    const help = await run('init', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: petstore-service init <dir> \[options\]\n/);
    expect(help.stdout).toContain('-k, --key <key[:plan]>');
    expect(help.stdout).toContain('-f, --force');
    expect((await run('--help')).stdout).toContain('petstore-service init <dir>');
  });

  it.each([
    [[], `init needs the folder to write ${WORKER} into: petstore-service init <dir>`],
    [['a', 'b'], 'init takes one folder, got 2: a b'],
    [['public', '--port', '80'], "Unknown option '--port'"],
    [['public', '--key'], "Option '-k, --key <value>' argument missing"],
    [['public', '--force=yes'], "Option '-f, --force' does not take an argument"],
    [['public', '--key', 'k:gold'], '--key: API key entry 1: an unknown plan; plans: free, pro, business or enterprise:PER_MINUTE:PER_DAY'],
    [['public', '--key', 'not a token'], '--key: API key entry 1: the key may hold only letters, digits and - . _ ~ + / (it is sent in a Bearer header)'],
  ])('refuses %j in one line on stderr with exit code 2', async (args, message) => {
    expect(await run('init', ...args)).toEqual({ code: 2, stdout: '', stderr: `petstore-service init: ${message}; see petstore-service init --help\n` });
  });

  // Node's recursive mkdir spins there forever: /proc has the parent, and takes no new directories.
  it.skipIf(process.platform !== 'linux')('answers init /proc/anything at once, naming the folder that takes no new ones', async () => {
    expect(await run('init', '/proc/anything')).toEqual({
      code: 2,
      stdout: '',
      stderr: `petstore-service init: cannot write /proc/anything/${WORKER}: /proc takes no new directories; name a folder you can write to; see petstore-service init --help\n`,
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
