/** The command (built) behind a proxy: `--trust-proxy` says which forwarding headers to believe, and a warning is printed as a warning, with its code. */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runCli, type CliProcess } from '../helpers/cli.ts';

/** The URL the command prints once it listens. */
async function listening(cli: CliProcess): Promise<string> {
  while (!/listening on (\S+)\n/.test(cli.stdout())) {
    if (cli.child.exitCode !== null) throw new Error(`exited with ${cli.child.exitCode}: ${cli.stderr()}`);
    await Promise.race([once(cli.child.stdout!, 'data'), cli.exited]);
  }
  return /listening on (\S+)\n/.exec(cli.stdout())![1]!;
}

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
});
