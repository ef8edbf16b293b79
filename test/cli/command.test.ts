/** The petstore-service command (built), as `npm start` runs it: env, flags, output, exit codes. */
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

function start(args: string[], env: Record<string, string> = {}) {
  const { child, exited, stdout, stderr } = runCli(args, { PORT: '0', ...env });
  const listening = new Promise<{ url: string; stdout: string }>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const url = /listening on (\S+)\n/.exec(stdout())?.[1];
      if (url && stdout().split('\n').length > 2) resolve({ url, stdout: stdout() });
    });
    void exited.then(({ code }) => reject(new Error(`exited with ${code}: ${stderr()}`)));
  });
  listening.catch(() => {}); // tests that expect an exit never await it

  return { child, listening, exited };
}

describe('petstore-service command', () => {
  it('prints the URL, that pets live in memory, and a generated key that creates pet 1 and lists it', async () => {
    const { listening } = start([]);
    const { url, stdout } = await listening;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(stdout.split('\n')[1]).toBe('Pets and limits: memory (gone when the process stops)');
    const key = /generated for this run\): (\S+)/.exec(stdout)![1]!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/pets`, { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' });
    expect(created.status).toBe(201);
    expect((await created.json()).id).toBe(1);
    expect(await (await fetch(`${url}/pets`, { headers })).json()).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
  });

  it('uses PETSTORE_API_KEYS and says how many keys, never which', async () => {
    const { listening } = start([], { PETSTORE_API_KEYS: 'alpha-secret:free,beta-secret:enterprise:100000:10000000' });
    const { url, stdout } = await listening;
    expect(stdout).toContain('Using 2 API key(s) from PETSTORE_API_KEYS.');
    expect(stdout).not.toMatch(/secret/);
    for (const key of ['alpha-secret', 'beta-secret']) {
      expect((await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    }
  });

  it('takes --port, --host and repeated --key flags over the environment', async () => {
    const { listening } = start(['--host', '127.0.0.1', '--port', '0', '--key', 'k1:pro', '-k', 'k2:free'], {
      PETSTORE_API_KEYS: 'ignored:free',
    });
    const { url, stdout } = await listening;
    expect(stdout).toContain('Using 2 API key(s) from --key.');
    expect((await fetch(`${url}/pets`, { headers: { authorization: 'Bearer k2' } })).status).toBe(200);
    expect((await fetch(`${url}/pets`, { headers: { authorization: 'Bearer ignored' } })).status).toBe(401);
  });

  it('prints usage for --help and exits 0', async () => {
    const { code, stdout } = await start(['--help']).exited;
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: petstore-service');
    expect(stdout).toContain('PETSTORE_API_KEYS');
  });

  it.each<[string, string[], Record<string, string>]>([
    ['a non-numeric PORT', [], { PORT: 'eighty' }],
    ['a PORT above 65535', [], { PORT: '70000' }],
    ['a bad --port', ['--port', '-1'], {}],
    ['an unknown flag', ['--verbose'], {}],
    ['an unknown plan in PETSTORE_API_KEYS', [], { PETSTORE_API_KEYS: 'topsecret:gold' }],
    ['a key without a plan', ['--key', 'topsecret'], {}],
    ['an empty HOST', [], { HOST: ' ' }],
    ['a --fail-rate above 1', ['--fail-rate', '2'], {}],
    ['a non-numeric --delay', ['--delay', 'soon'], {}],
  ])('refuses %s with one line on stderr and exit code 2, never echoing a key', async (_, args, env) => {
    const { code, stderr, stdout } = await start(args, env).exited;
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^petstore-service: /);
    expect(stderr + stdout).not.toContain('topsecret');
  });

  it.each(['--version', '-v'])('prints the package version for %s and exits 0', async (flag) => {
    const { code, stdout, stderr } = await start([flag]).exited;
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  // The examples that name a store run in test/cli/storage.test.ts, against real ones.
  it('lists real invocations under "Examples:" in --help, and each in-memory one starts the server', async () => {
    const { stdout } = await start(['--help']).exited;
    const examples = stdout
      .split('\nExamples:\n')[1]!
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /\bpetstore-service\b/.test(line) && !/--data|--database-url|--redis|DATABASE_URL|REDIS_URL/.test(line));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    expect(examples.length).toBeLessThanOrEqual(5);
    for (const example of examples) {
      const words = example.split(/\s+/);
      const env = Object.fromEntries(words.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split(/=(.*)/s).slice(0, 2)));
      const args = words.slice(words.indexOf('petstore-service') + 1).map((word, i, all) => (all[i - 1] === '--port' ? '0' : word));
      const { listening, child, exited } = start(args, env);
      await expect(listening, example).resolves.toMatchObject({ url: expect.stringMatching(/^http:\/\//) });
      child.kill('SIGTERM');
      expect((await exited).code, example).toBe(0);
    }
  });

  it.each<[string, string[], Record<string, string>, string]>([
    ['--port -1', ['--port', '-1'], {}, '--port must be a whole number from 0 to 65535, got "-1"'],
    ['--port=-1', ['--port=-1'], {}, '--port must be a whole number from 0 to 65535, got "-1"'],
    ['-p -1', ['-p', '-1'], {}, '--port must be a whole number from 0 to 65535, got "-1"'],
    ['--port http', ['--port', 'http'], {}, '--port must be a whole number from 0 to 65535, got "http"'],
    ['PORT=eighty', [], { PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535, got "eighty"'],
    ['--delay -5', ['--delay', '-5'], {}, '--delay must be milliseconds (300) or a range of them (100-400), whole numbers from 0 to 2147483647, got "-5"'],
    ['--delay=-5', ['--delay=-5'], {}, '--delay must be milliseconds (300) or a range of them (100-400), whole numbers from 0 to 2147483647, got "-5"'],
    [
      '--delay soon',
      ['--delay', 'soon'],
      {},
      '--delay must be milliseconds (300) or a range of them (100-400), whole numbers from 0 to 2147483647, got "soon"',
    ],
    [
      '--delay past what a timer holds',
      ['--delay', '2147483648'],
      {},
      '--delay must be milliseconds (300) or a range of them (100-400), whole numbers from 0 to 2147483647, got "2147483648"',
    ],
    ['--delay 400-100', ['--delay', '400-100'], {}, '--delay 400-100 runs from high to low; write the smaller number first, e.g. --delay 100-400'],
    ['--delay 1-x', ['--delay', '1-x'], {}, '--delay must be milliseconds (300) or a range of them (100-400), whole numbers from 0 to 2147483647, got "1-x"'],
    [
      '--generate 0',
      ['--generate', '0'],
      {},
      '--generate must be COUNT or COUNT:SEED, a count from 1 to 10000 and a seed from 0 to 4294967295, e.g. --generate 25:7, got "0"',
    ],
    [
      '--generate 25:x',
      ['--generate', '25:x'],
      {},
      '--generate must be COUNT or COUNT:SEED, a count from 1 to 10000 and a seed from 0 to 4294967295, e.g. --generate 25:7, got "25:x"',
    ],
    ['--fail-rate -0.5', ['--fail-rate', '-0.5'], {}, '--fail-rate must be a number from 0 to 1, got "-0.5"'],
    ['--fail-rate half', ['--fail-rate', 'half'], {}, '--fail-rate must be a number from 0 to 1, got "half"'],
    ['-x', ['-x'], {}, 'unknown option -x'],
    ['--port with no value', ['--port'], {}, '--port needs a value'],
    ['--host followed by another flag', ['--host', '--key', 'k1:pro'], {}, '--host needs a value'],
    ['--help=yes', ['--help=yes'], {}, '--help takes no value'],
    [
      '--admin-token short',
      ['--admin-token', 'short'],
      {},
      '--admin-token must be 16 or more characters a client can send in Authorization: Bearer (letters, digits, -._~+/, and = only at the end)',
    ],
    [
      'PETSTORE_ADMIN_TOKEN=short',
      [],
      { PETSTORE_ADMIN_TOKEN: 'short' },
      'PETSTORE_ADMIN_TOKEN must be 16 or more characters a client can send in Authorization: Bearer (letters, digits, -._~+/, and = only at the end)',
    ],
    [
      '--admin-token with --redis',
      ['--admin-token', 'admin-token-0123456789', '--redis', 'redis://127.0.0.1:1'],
      {},
      '--admin-token works with the in-memory stores only (the admin API resets them); leave out --data, --database-url and --redis',
    ],
  ])('explains %s in plain words on stderr and exits 2', async (_, args, env, message) => {
    const { code, stdout, stderr } = await start(args, env).exited;
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `petstore-service: ${message}; see --help\n` });
  });

  it.each<[string, string[], string]>([
    ['--prot 9', ['--prot', '9'], 'unknown option --prot; did you mean --port? see --help'],
    ['--prot=9', ['--prot=9'], 'unknown option --prot; did you mean --port? see --help'],
    ['--gnerate 5', ['--gnerate', '5'], 'unknown option --gnerate; did you mean --generate? see --help'],
    ['--admin-tokn x', ['--admin-tokn', 'x'], 'unknown option --admin-tokn; did you mean --admin-token? see --help'],
    ['--verbose, near no flag', ['--verbose'], 'unknown option --verbose; see --help'],
    ['int site', ['int', 'site'], 'unexpected argument "int": did you mean init? see --help'],
    ['serve, near no subcommand', ['serve'], 'unexpected argument "serve"; see --help'],
  ])('names the flag or subcommand meant by %s, and exits 2', async (_, args, message) => {
    const { code, stdout, stderr } = await start(args).exited;
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `petstore-service: ${message}\n` });
  });

  it('starts on the default port 8080 when PORT is empty, as if it were unset', async () => {
    const { child, exited, stdout, stderr } = runCli(['--key', 'k1:pro'], { PORT: '' });
    // 8080 may be another program's: then the command says so and exits 1, still not refusing PORT.
    const outcome = await new Promise<string>((resolve) => {
      child.stdout!.on('data', () => /listening on \S+\n/.test(stdout()) && resolve(stdout().split('\n')[0]!));
      void exited.then(({ code }) => resolve(`exit ${code}: ${stderr()}`));
    });
    expect([
      'Pet Store API listening on http://127.0.0.1:8080/v1',
      'exit 1: petstore-service: port 8080 is already in use on 127.0.0.1; pick another with --port\n',
    ]).toContain(outcome);
  });

  it('listens on the default host 127.0.0.1 when HOST is empty, as if it were unset', async () => {
    const { url } = await start(['--key', 'k1:pro'], { HOST: '' }).listening;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it.each([
    ['--help', 'Usage: petstore-service'],
    ['--version', `${version}\n`],
  ])('answers %s with exit 0 whatever the environment holds', async (flag, printed) => {
    const env = { PORT: 'abc', HOST: 'http://x', PETSTORE_API_KEYS: 'topsecret:gold', PETSTORE_ADMIN_TOKEN: 'short', DATABASE_URL: 'mysql://x' };
    const { code, stdout, stderr } = await start([flag], env).exited;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain(printed);
  });

  it('names where a bad key came from: PETSTORE_API_KEYS or --key', async () => {
    const fromEnv = await start([], { PETSTORE_API_KEYS: 'topsecret:gold' }).exited;
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/^petstore-service: PETSTORE_API_KEYS: API key entry 1: .+; see --help\n$/);
    const fromFlag = await start(['--key', 'ok:free', '--key', 'topsecret'], { PETSTORE_API_KEYS: 'ignored:free' }).exited;
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toMatch(/^petstore-service: --key: API key entry 2: .+; see --help\n$/);
    expect(fromEnv.stderr + fromFlag.stderr).not.toContain('topsecret');
  });

  it('names the port when it is already in use, and exits 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const { code, stdout, stderr } = await start(['--port', String(port)]).exited;
      expect({ code, stdout, stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: `petstore-service: port ${port} is already in use on 127.0.0.1; pick another with --port\n`,
      });
    } finally {
      taken.close();
    }
  });

  // A name that cannot resolve (.invalid is reserved for that), and a documentation address (TEST-NET-1) no machine has.
  it.each(['no.such.host.invalid', '192.0.2.1'])('says it cannot listen on host %s, without a stack trace, and exits 1', async (host) => {
    const { code, stdout, stderr } = await start(['--host', host]).exited;
    expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: `petstore-service: cannot listen on host "${host}": no such interface/address\n` });
  });

  it('names only the demo faults it was asked for', async () => {
    const { stdout } = await start(['--fail-rate', '0.5', '--key', 'k1:pro']).listening;
    expect(stdout).toContain('Demo faults: 50% of answers 503.\n');
  });

  it('injects demo faults with --fail-rate and --delay', async () => {
    const { listening } = start(['--fail-rate', '1', '--delay', '5', '--key', 'k1:pro']);
    const { url, stdout } = await listening;
    expect(stdout).toContain('Demo faults: every answer 5 ms late, 100% of answers 503.');
    const response = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer k1' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
  });

  it('mounts the admin API with --admin-token, says where and where its dashboard is, and keeps the demo faults as faults it lists and a reset brings back', async () => {
    const { url, stdout } = await start(['--key', 'k1:pro', '--admin-token', 'admin-token-0123456789', '--delay', '5']).listening;
    const admin = new URL('/__admin', url).href;
    expect(stdout).toContain(`\nAdmin API on ${admin} (Authorization: Bearer <the admin token>)\nDashboard on ${admin}/ (sign in with the admin token)\n`);
    expect((await fetch(`${admin}/`)).headers.get('content-type')).toMatch(/^text\/html/);
    expect(stdout).not.toContain('admin-token-0123456789');
    const headers = { authorization: 'Bearer admin-token-0123456789' };
    expect(await (await fetch(`${admin}/faults`, { headers })).json()).toEqual([{ id: 'fault-1', delayMs: 5, times: 'always', left: 'always' }]);
    expect((await fetch(`${admin}/faults`, { method: 'DELETE', headers })).status).toBe(204);
    expect((await fetch(`${admin}/reset`, { method: 'POST', headers })).status).toBe(204);
    expect(await (await fetch(`${admin}/faults`, { headers })).json()).toEqual([{ id: 'fault-2', delayMs: 5, times: 'always', left: 'always' }]);
    expect((await fetch(`${admin}/faults`)).status).toBe(401);
  });

  it('has no admin API without --admin-token: /__admin is a 404', async () => {
    const { url } = await start(['--key', 'k1:pro']).listening;
    expect((await fetch(new URL('/__admin/pets', url), { headers: { authorization: 'Bearer admin-token-0123456789' } })).status).toBe(404);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('exits 0 after a graceful shutdown on %s', async (signal) => {
    const { child, listening, exited } = start([]);
    await listening;
    child.kill(signal);
    expect((await exited).code).toBe(0);
  });
});
