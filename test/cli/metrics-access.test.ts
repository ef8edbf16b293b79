/** Who may read the built command's /metrics: a budget per address like a keyless caller's, a token when one is set, and no body read. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { expectRawError, rawConnect, requestHead } from '../helpers/raw-http.ts';

const TOKEN = 'metrics-token-0123456789';

/** The command with `args` and `env`, once it says where it listens: its origin and stdout so far. */
async function start(args: string[], env: Record<string, string> = {}) {
  const cli = runCli(['--port', '0', '--key', 'metrics-access-key:free', ...args], { PETSTORE_METRICS: '', PETSTORE_METRICS_TOKEN: '', ...env });
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = /listening on (\S+)\n/.exec(cli.stdout())?.[1];
      if (found && cli.stdout().includes('Metrics for Prometheus')) resolve(found);
    };
    cli.child.stdout!.on('data', look);
    void cli.exited.then(({ code, stderr }) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  return { origin: new URL(url).origin, stdout: cli.stdout };
}

const scrape = (origin: string, headers: Record<string, string> = {}) => fetch(`${origin}/metrics`, { headers });

describe('petstore-service --metrics: who may scrape', () => {
  it('counts scrapes per address like a keyless caller: past 60 in a minute, a JSON 429 rate_limited with the quota headers and Retry-After', async () => {
    const { origin } = await start(['--metrics']);
    const first = await scrape(origin);
    expect([first.status, first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual([200, '60', '59']);
    // Counted, not timed: a minute window may end between two scrapes, so at most two windows' worth come first.
    let refused: Response | undefined;
    for (let i = 1; i <= 121 && !refused; i++) {
      const response = await scrape(origin);
      if (response.status !== 200) refused = response;
    }
    expect(refused?.status).toBe(429);
    expect(refused!.headers.get('content-type')).toBe('application/json');
    expect(refused!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused!.json()).toMatchObject({ code: 'rate_limited', status: 429 });
  });

  it('with --metrics-token, answers only Authorization: Bearer <token>, and any other a JSON 401 naming what to send', async () => {
    const { origin, stdout } = await start(['--metrics', '--metrics-token', TOKEN]);
    const right = await scrape(origin, { authorization: `Bearer ${TOKEN}` });
    expect([right.status, right.headers.get('content-type')]).toEqual([200, 'text/plain; version=0.0.4; charset=utf-8']);
    expect(await right.text()).toContain('process_memory_usage_bytes');
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Basic ${TOKEN}` }] as Record<string, string>[]) {
      const refused = await scrape(origin, headers);
      expect([refused.status, refused.headers.get('www-authenticate'), await refused.json()]).toEqual([
        401,
        'Bearer realm="petstore-metrics"',
        { code: 'unauthorized', message: '/metrics needs Authorization: Bearer <the metrics token>.', status: 401 },
      ]);
    }
    expect(stdout()).toContain(`\nMetrics for Prometheus on ${origin}/metrics (Authorization: Bearer <the metrics token>)\n`);
  });

  it('takes the token from PETSTORE_METRICS_TOKEN', async () => {
    const { origin } = await start(['--metrics'], { PETSTORE_METRICS_TOKEN: TOKEN });
    expect((await scrape(origin)).status).toBe(401);
    expect((await scrape(origin, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('refuses a token too short to be one, or one without --metrics, in one line with exit code 2', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [['--metrics', '--metrics-token', 'short'], {}, '--metrics-token must be 16 or more characters a client can send in Authorization: Bearer'],
      [['--metrics-token', TOKEN], {}, '--metrics-token guards /metrics: give --metrics too'],
      [[], { PETSTORE_METRICS_TOKEN: TOKEN }, 'PETSTORE_METRICS_TOKEN guards /metrics: give --metrics too'],
    ];
    for (const [args, env, start] of cases) {
      const { code, stdout, stderr } = await runCli(['--port', '0', ...args], { PETSTORE_METRICS: '', ...env }).exited;
      expect([code, stdout, stderr.startsWith(`petstore-service: ${start}`)]).toEqual([2, '', true]);
    }
  });

  it('refuses a body sent to /metrics with a JSON 413 and closes the connection, having read next to none of a 1 GB body', async () => {
    const { origin } = await start(['--metrics']);
    const connection = await rawConnect(origin);
    connection.write(requestHead(['GET /metrics HTTP/1.1', 'Host: x', 'Content-Length: 1000000000']));
    const chunk = 'x'.repeat(64 * 1024);
    let written = 0;
    const pump = setInterval(() => {
      // Stops once answered, as a client does; the server reads and drops what is still in flight
      // while it closes (test/http/staged-close.test.ts), so no TCP reset races the answer.
      if (connection.received() !== '') return clearInterval(pump);
      connection.write(chunk);
      written += chunk.length;
    }, 2);
    const responses = await connection.untilClosed();
    clearInterval(pump);
    expect(responses).toHaveLength(1);
    expectRawError(responses[0], 413, 'payload_too_large');
    expect(responses[0]!.headers.connection).toBe('close');
    expect(written).toBeLessThan(100_000_000);
  });
});
