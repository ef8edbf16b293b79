/** The built command's `--cors` and PETSTORE_CORS: which pages on other origins may call it, the private-network preflight of a page calling loopback, and each value it refuses. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { startCommand } from '../helpers/readiness-command.ts';

const APP = 'https://app.example';
/** What Chromium sends before a public page's POST to a server on loopback (Private Network Access). */
const privatePreflight = (origin: string) => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization, content-type',
    'access-control-request-private-network': 'true',
  },
});

/** The CORS headers of an answer, by lower-case name. */
const corsOf = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));

describe('petstore-service --cors', () => {
  it('answers the private-network preflight of a listed origin, so a page on it may call the command on loopback, and lets it read the answers', async () => {
    const { api } = await startCommand(['--cors', `${APP}, https://other.example`]);
    const preflight = await fetch(`${api}/pets`, privatePreflight(APP));
    expect([preflight.status, corsOf(preflight)['access-control-allow-origin'], corsOf(preflight)['access-control-allow-private-network']]).toEqual([
      204,
      APP,
      'true',
    ]);
    const list = await fetch(`${api}/pets`, { headers: { origin: APP, authorization: 'Bearer readiness-test-key' } });
    expect([list.status, list.headers.get('access-control-allow-origin'), list.headers.get('vary')]).toEqual([200, APP, 'Origin']);
    const outside = await fetch(`${api}/pets`, privatePreflight('https://evil.example'));
    expect(corsOf(outside)).toEqual({});
  });

  it('takes * from PETSTORE_CORS, any origin then allowed', async () => {
    const cli = runCli(['--port', '0', '--key', 'cors-key-0123:free'], { PETSTORE_CORS: '*' });
    const url = await new Promise<string>((resolve) => {
      const look = () => {
        const found = /listening on (\S+)\n/.exec(cli.stdout())?.[1];
        if (found) resolve(found);
      };
      cli.child.stdout!.on('data', look);
    });
    const preflight = await fetch(`${url}/pets`, privatePreflight('https://anyone.example'));
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-private-network')]).toEqual([
      204,
      'https://anyone.example',
      'true',
    ]);
  });

  it('sends no CORS headers without it: a page on another origin is blocked, as before', async () => {
    const { api } = await startCommand([]);
    expect(corsOf(await fetch(`${api}/pets`, privatePreflight(APP)))).toEqual({});
  });

  it('refuses a value that is no origin, in one line naming the flag and the values it takes, with exit code 2', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [['--cors', 'app.example'], {}, '--cors must be * or comma-separated origins like https://app.example, got "app.example"'],
      [['--cors', 'https://app.example/path'], {}, '--cors must be * or comma-separated origins like https://app.example, got "https://app.example/path"'],
      [[], { PETSTORE_CORS: '*,https://app.example' }, 'PETSTORE_CORS must be * or comma-separated origins like https://app.example, got "*"'],
      [['--cors'], {}, '--cors needs a value'],
    ];
    for (const [args, env, message] of cases) {
      expect(await runCli(['--port', '0', ...args], env).exited).toEqual({ code: 2, stdout: '', stderr: `petstore-service: ${message}; see --help\n` });
    }
  });

  it('names --cors when it is misspelt', async () => {
    const { code, stderr } = await runCli(['--cros', '*']).exited;
    expect([code, stderr]).toEqual([2, 'petstore-service: unknown option --cros; did you mean --cors? see --help\n']);
  });
});
