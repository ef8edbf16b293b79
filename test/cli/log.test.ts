/** The petstore-service command's access log (built, as `npm start` runs it): a line per request, --log json, --quiet, and never a key. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const KEY = 'log-Key.4~2_abc';
const authed = { authorization: `Bearer ${KEY}` };

/** The command with `args`, its stdout split into the lines it prints on start and the access log after them. */
function start(args: string[]) {
  const { child, exited, stdout, stderr } = runCli(['--port', '0', ...args], { PETSTORE_API_KEYS: '' });
  /** Where the start lines end: after the key line (`Using … API key(s)`, or `Try: curl …` for a generated key). */
  const startLength = () => /\n(Using \d+ API key\(s\) from [^\n]+|Try: [^\n]+)\n/.exec(stdout());
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const url = /listening on (\S+)\n/.exec(stdout())?.[1];
      if (url && startLength()) resolve(url);
    });
    void exited.then(({ code }) => reject(new Error(`exited with ${code}: ${stderr()}`)));
  });
  listening.catch(() => {}); // tests that expect an exit never await it
  const logLines = () => {
    const end = startLength();
    return end
      ? stdout()
          .slice(end.index + end[0].length)
          .split('\n')
          .filter((line) => line !== '')
      : [];
  };
  /** The access log once it has `count` lines: each is written as its answer leaves, and arrives here a little later. */
  const waitForLines = (count: number) =>
    new Promise<string[]>((resolve) => {
      const check = () => logLines().length >= count && (child.stdout!.off('data', check), resolve(logLines()));
      child.stdout!.on('data', check);
      check();
    });
  return { child, listening, exited, waitForLines, all: stdout };
}

describe('the access log of petstore-service', () => {
  it('prints one line per request: method, path with query, status, milliseconds and the caller address', async () => {
    const server = start(['--key', `${KEY}:pro`]);
    const url = await server.listening;
    const origin = new URL(url).origin;
    expect((await fetch(`${url}/pets?limit=7`, { headers: authed })).status).toBe(200);
    const create = { method: 'POST', headers: { ...authed, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' };
    expect((await fetch(`${url}/pets`, create)).status).toBe(201);
    expect((await fetch(`${origin}/nowhere?x=1`)).status).toBe(404);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/pets`)).status).toBe(401);
    const lines = await server.waitForLines(5);
    expect(lines).toHaveLength(5);
    const patterns = [
      /^GET \/v1\/pets\?limit=7 200 \d+\.\dms 127\.0\.0\.1$/,
      /^POST \/v1\/pets 201 \d+\.\dms 127\.0\.0\.1$/,
      /^GET \/nowhere\?x=1 404 \d+\.\dms 127\.0\.0\.1$/,
      /^GET \/healthz 200 \d+\.\dms 127\.0\.0\.1$/,
      /^GET \/v1\/pets 401 \d+\.\dms 127\.0\.0\.1$/,
    ];
    lines.forEach((line, i) => expect(line).toMatch(patterns[i]!));
  });

  it('never prints a key: not the one sent in Authorization, nor one misplaced in the path or query, typed or percent-encoded', async () => {
    const server = start(['--key', `${KEY}:pro`]);
    const url = await server.listening;
    const encoded = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    await fetch(`${url}/pets`, { headers: authed });
    await fetch(`${url}/pets?api_key=${KEY}`, { headers: authed });
    await fetch(`${url}/pets/${KEY}`, { headers: authed });
    await fetch(`${url}/pets?api_key=${encoded}&limit=2`, { headers: authed });
    const lines = await server.waitForLines(4);
    expect(lines.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'GET /v1/pets 200',
      'GET /v1/pets?api_key=[redacted] 200',
      'GET /v1/pets/[redacted] 400',
      'GET /v1/pets?api_key=[redacted]&limit=2 200',
    ]);
    expect(server.all()).not.toContain(KEY);
    expect(server.all().toLowerCase()).not.toContain(encoded.toLowerCase());
  });

  it('never prints the admin token, a sandbox key or a sandbox selector misplaced in the query', async () => {
    const token = 'log-admin-token-0123456789';
    const server = start(['--key', `${KEY}:pro`, '--admin-token', token]);
    const url = await server.listening;
    const opened = await fetch(`${new URL(url).origin}/__admin/sandboxes`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const { keys, selector } = (await opened.json()) as { keys: { free: string }; selector: string };
    await fetch(`${url}/pets?token=${token}`, { headers: authed });
    await fetch(`${url}/pets?api_key=${keys.free}`, { headers: authed });
    await fetch(`${url}/pets?s=${selector}`, { headers: { ...authed, 'petstore-sandbox': selector } });
    const lines = await server.waitForLines(4);
    expect(lines.slice(1).map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'GET /v1/pets?token=[redacted] 200',
      'GET /v1/pets?api_key=[redacted] 200',
      'GET /v1/pets?s=[redacted] 200',
    ]);
    expect(server.all()).not.toContain(token);
    expect(server.all()).not.toContain(keys.free);
    expect(server.all()).not.toContain(selector);
  });

  it('never repeats a generated key: it is printed once on start, and [redacted] in the log', async () => {
    const server = start([]);
    const url = await server.listening;
    const generated = /generated for this run\): (\S+)/.exec(server.all())![1]!;
    await fetch(`${url}/pets?api_key=${generated}`);
    const [line] = await server.waitForLines(1);
    expect(line).toMatch(/^GET \/v1\/pets\?api_key=\[redacted\] 401 /);
    expect(server.all().split(generated)).toHaveLength(3); // the key line and the "Try: curl" line
  });

  it('prints one JSON object per line with --log json: time, method, path, status, ms, caller', async () => {
    const server = start(['--key', `${KEY}:pro`, '--log', 'json']);
    const url = await server.listening;
    await fetch(`${url}/pets?limit=3`, { headers: authed });
    await fetch(`${new URL(url).origin}/healthz`, { method: 'HEAD' });
    const entries = (await server.waitForLines(2)).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toEqual([
      { time: expect.any(String), method: 'GET', path: '/v1/pets?limit=3', status: 200, ms: expect.any(Number), caller: '127.0.0.1' },
      { time: expect.any(String), method: 'HEAD', path: '/healthz', status: 200, ms: expect.any(Number), caller: '127.0.0.1' },
    ]);
    for (const { time } of entries) expect(new Date(time as string).toISOString()).toBe(time);
  });

  it('prints nothing per request with --quiet: after requests and SIGTERM, stdout holds only what it printed on start', async () => {
    const server = start(['--key', `${KEY}:pro`, '--quiet']);
    const url = await server.listening;
    const printedOnStart = server.all();
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/pets`, { headers: authed })).status).toBe(200);
    server.child.kill('SIGTERM');
    const { code, stdout } = await server.exited;
    expect(code).toBe(0);
    expect(stdout).toBe(printedOnStart);
    expect(stdout.split('\n').filter((line) => line !== '')).toHaveLength(3);
  });

  it('logs what the demo faults answer: with --fail-rate 1 --delay 50, a 503 that took 50 ms or more', async () => {
    const server = start(['--key', `${KEY}:pro`, '--fail-rate', '1', '--delay', '50']);
    const url = await server.listening;
    expect((await fetch(`${url}/pets`, { headers: authed })).status).toBe(503);
    const [line] = await server.waitForLines(1);
    const [, ms] = /^GET \/v1\/pets 503 (\d+\.\d)ms 127\.0\.0\.1$/.exec(line!)!;
    expect(Number(ms)).toBeGreaterThanOrEqual(50);
  });

  it.each<[string, string[], string]>([
    ['--log xml', ['--log', 'xml'], '--log must be "text" or "json", got "xml"'],
    ['--log=JSON', ['--log=JSON'], '--log must be "text" or "json", got "JSON"'],
    ['--log with no value', ['--log'], '--log needs a value'],
    ['--quiet with --log', ['--quiet', '--log', 'json'], '--quiet and --log cannot be used together: --quiet prints no access log'],
    ['--quiet=yes', ['--quiet=yes'], '--quiet takes no value'],
  ])('refuses %s in one line on stderr with exit code 2', async (_, args, message) => {
    const { code, stdout, stderr } = await start(args).exited;
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `petstore-service: ${message}; see --help\n` });
  });
});
