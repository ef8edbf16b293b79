/** The command's admin API: a token a client can send, and a loud warning when it listens beyond loopback. */
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const TOKEN = 'admin-token-0123456789';
const RULE = '16 or more characters a client can send in Authorization: Bearer (letters, digits, -._~+/, and = only at the end)';

describe('the command with an admin token', () => {
  it.each<[string, string[], Record<string, string>, string]>([
    ['--admin-token with a space', ['--admin-token', 'my admin token 0123'], {}, '--admin-token'],
    ['--admin-token with a quote', ['--admin-token', 'admin-"token"-0123456789'], {}, '--admin-token'],
    ['PETSTORE_ADMIN_TOKEN with a space', [], { PETSTORE_ADMIN_TOKEN: 'my admin token 0123' }, 'PETSTORE_ADMIN_TOKEN'],
    ['PETSTORE_ADMIN_TOKEN too short', [], { PETSTORE_ADMIN_TOKEN: 'short' }, 'PETSTORE_ADMIN_TOKEN'],
  ])('refuses %s in one line on stderr and exits 2', async (_, args, env, from) => {
    const { code, stdout, stderr } = await runCli(['--port', '0', ...args], env).exited;
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `petstore-service: ${from} must be ${RULE}; see --help\n` });
  });

  it('started with --host 0.0.0.0 warns with PETSTORE_ADMIN_NOT_LOOPBACK and its banner names 0.0.0.0 and every interface, not localhost', async () => {
    const cli = runCli(['--host', '0.0.0.0', '--port', '0', '--quiet'], { PETSTORE_ADMIN_TOKEN: TOKEN });
    // A safety net: a node process starting on a busy machine can take seconds.
    const banner = await vi.waitFor(() => /^Admin API on .*\n/m.exec(cli.stdout())![0], { timeout: 30_000 });
    const port = /listening on http:\/\/0\.0\.0\.0:(\d+)\/v1\n/.exec(cli.stdout())?.[1];
    expect(port, cli.stdout()).toMatch(/^\d+$/);
    expect(banner).toBe(`Admin API on http://0.0.0.0:${port}/__admin, listening on every interface (Authorization: Bearer <the admin token>)\n`);
    expect(cli.stdout()).not.toContain('localhost');
    const warning = cli
      .stderr()
      .split('\n')
      .filter((line) => line.includes('PETSTORE_ADMIN_NOT_LOOPBACK'));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toMatch(/^petstore-service: warning PETSTORE_ADMIN_NOT_LOOPBACK: the admin API listens on every interface \(0\.0\.0\.0\)/);
    expect(warning[0]).toContain('errors.md#petstore_admin_not_loopback');
    expect(cli.stderr()).not.toContain(TOKEN);
    const answer = await fetch(`http://127.0.0.1:${port}/__admin/pets`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
  });

  it('on loopback says nothing of interfaces', async () => {
    const cli = runCli(['--port', '0', '--quiet'], { PETSTORE_ADMIN_TOKEN: TOKEN });
    const banner = await vi.waitFor(() => /^Admin API on .*\n/m.exec(cli.stdout())![0], { timeout: 30_000 });
    expect(banner).toMatch(/^Admin API on http:\/\/127\.0\.0\.1:\d+\/__admin \(Authorization: Bearer <the admin token>\)\n$/);
    expect(cli.stderr()).toBe('');
  });
});
