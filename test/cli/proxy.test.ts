/** The command (built) behind a proxy: `--trust-proxy` says which proxies to believe, `--proxy-header` which header, and a warning is printed as a warning, with its code. */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runCli, type CliProcess, listening } from '../helpers/cli.ts';

/** Waits until the command has printed `pattern` on `stream`, and returns it all. */
async function printed(cli: CliProcess, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string> {
  while (!pattern.test(cli[stream]())) await Promise.race([once(cli.child[stream]!, 'data'), cli.exited]);
  return cli[stream]();
}

describe('petstore-service behind a proxy', () => {
  it('believes X-Forwarded-For from one proxy with --trust-proxy 1: the access log shows the client, and nothing is warned', async () => {
    const cli = runCli(['--port', '0', '--key', 'k1:free', '--trust-proxy', '1']);
    const url = await listening(cli);
    const response = await fetch(`${url}/pets`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(response.status).toBe(401);
    expect(await printed(cli, 'stdout', /GET \/v1\/pets 401 .*\n/)).toMatch(/GET \/v1\/pets 401 \S+ 203\.0\.113\.9\n/);
    expect(cli.stderr()).toBe('');
  });

  it('takes --trust-proxy as addresses and CIDR ranges too', async () => {
    const cli = runCli(['--port', '0', '--key', 'k1:free', '--trust-proxy', '127.0.0.1,10.0.0.0/8']);
    const url = await listening(cli);
    await fetch(`${url}/pets`, { headers: { 'x-forwarded-for': '198.51.100.4' } });
    expect(await printed(cli, 'stdout', /GET \/v1\/pets 401 .*\n/)).toMatch(/ 198\.51\.100\.4\n/);
  });

  it('refuses a --trust-proxy that is no hop count or range in one line, exit 2', async () => {
    const { code, stdout, stderr } = await runCli(['--port', '0', '--trust-proxy', '10.0.0.0/99']).exited;
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toMatch(/^petstore-service: --trust-proxy: "10\.0\.0\.0\/99" is not an IP address or CIDR range.*\n$/);
  });

  it('prints a forwarding header it ignores as a warning with its code, once, not as a failed request', async () => {
    const cli = runCli(['--port', '0', '--key', 'k1:free']);
    const url = await listening(cli);
    for (let i = 0; i < 2; i++) await fetch(`${url}/pets`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    const stderr = await printed(cli, 'stderr', /\n/);
    expect(stderr).toMatch(/^petstore-service: warning PETSTORE_PROXY_HEADER_IGNORED: .*--trust-proxy.*\n$/);
    expect(stderr).not.toMatch(/failed/);
  });

  it('writes no text a client put in X-Forwarded-For into the access log: a hop that is no address ends the trust, and the proxy is the caller', async () => {
    const cli = runCli(['--port', '0', '--key', 'k1:free', '--trust-proxy', '1']);
    const url = await listening(cli);
    const injected = '203.0.113.5 (admin login ok) GET /v1/secret 200';
    expect((await fetch(`${url}/pets`, { headers: { 'x-forwarded-for': injected } })).status).toBe(401);
    const log = await printed(cli, 'stdout', /GET \/v1\/pets 401 .*\n/);
    expect(log).not.toContain('(admin login ok)');
    expect(log).not.toContain('/v1/secret');
    expect(log).toMatch(/\nGET \/v1\/pets 401 \d+\.\dms 127\.0\.0\.1\n$/);
  });

  it('with --proxy-header forwarded, believes Forwarded and ignores X-Forwarded-For; PETSTORE_PROXY_HEADER says the same', async () => {
    const headers = { forwarded: 'for="[2001:db8::5]:4711"', 'x-forwarded-for': '198.51.100.7' };
    const flagged = runCli(['--port', '0', '--key', 'k1:free', '--trust-proxy', '1', '--proxy-header', 'Forwarded']);
    await fetch(`${await listening(flagged)}/pets`, { headers });
    expect(await printed(flagged, 'stdout', /GET \/v1\/pets 401 .*\n/)).toMatch(/ 2001:db8::5\n$/);
    const fromEnv = runCli(['--port', '0', '--key', 'k1:free', '--trust-proxy', '1'], { PETSTORE_PROXY_HEADER: 'forwarded' });
    await fetch(`${await listening(fromEnv)}/pets`, { headers });
    expect(await printed(fromEnv, 'stdout', /GET \/v1\/pets 401 .*\n/)).toMatch(/ 2001:db8::5\n$/);
  });

  it.each([
    [
      ['--trust-proxy', '1', '--proxy-header', 'x-real-ip'],
      /^petstore-service: --proxy-header must be "x-forwarded-for" or "forwarded", got "x-real-ip"; see --help\n$/,
    ],
    [['--proxy-header', 'forwarded'], /^petstore-service: --proxy-header names the header trusted proxies set: give --trust-proxy too; see --help\n$/],
  ])('refuses %j in one line, exit 2', async (args, message) => {
    const { code, stdout, stderr } = await runCli(['--port', '0', ...args]).exited;
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toMatch(message);
  });
});
