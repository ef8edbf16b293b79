/**
 * The command's observability (built, as `npm start` runs it): `--metrics` serves Prometheus text
 * at /metrics on the API's port, and `--log json` lines carry the trace id of an SDK loaded with
 * `node --import`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { promtoolPath } from '../helpers/system-parts.ts';

const KEY = 'metrics-Key.4~2_abc';
const authed = { authorization: `Bearer ${KEY}` };
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
/** NODE_OPTIONS that load a fixture first, as `node --import ./otel.mjs petstore-service` would. */
const importing = (name: string) => `--import=${fixture(name)}`;

/** The command with `args` and `env`, once it has printed its start lines: its API URL, origin, stdout and stderr so far. */
async function start(args: string[], env: Record<string, string> = {}) {
  const cli = runCli(['--port', '0', ...args], { PETSTORE_API_KEYS: '', PETSTORE_METRICS: '', ...env });
  const started = new Promise<string>((resolve, reject) => {
    const check = () => {
      const url = /listening on (\S+)\n/.exec(cli.stdout())?.[1];
      if (url && /\n(Using \d+ API key\(s\) from [^\n]+|Try: [^\n]+)\n/.test(cli.stdout())) resolve(url);
    };
    cli.child.stdout!.on('data', check);
    void cli.exited.then(({ code }) => reject(new Error(`exited with ${code}: ${cli.stderr()}`)));
  });
  const url = await started;
  return { ...cli, url, origin: new URL(url).origin };
}

/** One sample of a scrape: its metric name, labels and value. */
interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** The samples of Prometheus text (comments left out). */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, name = '', , labelText = '', value = ''] = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line) ?? [];
      expect(name, line).not.toBe('');
      const labels = Object.fromEntries([...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, label, text]) => [label!, text!]));
      return { name, labels, value: Number(value) };
    });
}

/** GET /metrics: its status, content type and text. */
async function scrape(origin: string) {
  const response = await fetch(`${origin}/metrics`);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** Each request-count series as `METHOD route status` (route `-` when it has none) and its count. */
function requestCounts(text: string): Record<string, number> {
  const counts = samples(text).filter((sample) => sample.name === 'http_server_request_duration_seconds_count');
  return Object.fromEntries(
    counts.map(({ labels, value }) => [`${labels.http_request_method} ${labels.http_route ?? '-'} ${labels.http_response_status_code}`, value]),
  );
}

const create = { method: 'POST', headers: { ...authed, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' };

describe('petstore-service --metrics', () => {
  it('counts every request by method, route and status, exactly, with refusals and the process metrics beside them', async () => {
    const { url, origin } = await start(['--metrics', '--key', `${KEY}:pro`]);
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/pets`, { headers: authed })).status).toBe(200);
    expect((await fetch(`${url}/pets`, create)).status).toBe(201);
    expect((await scrape(origin)).status).toBe(200); // a scrape between them counts nowhere
    expect((await fetch(`${url}/pets/1`, { headers: authed })).status).toBe(200);
    expect((await fetch(`${url}/pets/2`, { headers: authed })).status).toBe(404);
    expect((await fetch(`${url}/pets`)).status).toBe(401);
    expect((await fetch(`${url}/pets`, { headers: { authorization: 'Bearer not-a-key-of-this-server' } })).status).toBe(401);
    expect((await fetch(`${origin}/nowhere`)).status).toBe(404);
    expect((await fetch(`${url}/pets`, { method: 'DELETE', headers: authed })).status).toBe(405);

    const { status, type, text } = await scrape(origin);
    expect(status).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(requestCounts(text)).toEqual({
      'GET /v1/pets 200': 3,
      'POST /v1/pets 201': 1,
      'GET /v1/pets/{petId} 200': 1,
      'GET /v1/pets/{petId} 404': 1,
      'GET /v1/pets 401': 2,
      'GET - 404': 1,
      'DELETE /v1/pets 405': 1,
    });
    const all = samples(text);
    // Exactly the three labels (the route left out where none matched), and `le` on the buckets.
    for (const { name, labels } of all.filter((sample) => sample.name.startsWith('http_server_request_duration_seconds'))) {
      const expected = ['http_request_method', ...(labels.http_route === undefined ? [] : ['http_route']), 'http_response_status_code'];
      expect(Object.keys(labels)).toEqual(name.endsWith('_bucket') ? [...expected, 'le'] : expected);
    }
    expect(all.filter((sample) => sample.name === 'petstore_refusals_total')).toEqual([
      { name: 'petstore_refusals_total', labels: { petstore_refusal_reason: 'unauthorized' }, value: 2 },
    ]);
    expect(all.find((sample) => sample.name === 'petstore_pets')?.value).toBe(1);
    expect(all.find((sample) => sample.name === 'process_memory_usage_bytes')?.value).toBeGreaterThan(1_000_000);
    expect(all.filter((sample) => sample.name === 'process_cpu_time_seconds_total').map((sample) => sample.labels.process_cpu_state)).toEqual([
      'user',
      'system',
    ]);
    // No scope labels, no target_info: nothing but what is asked for.
    expect(all.filter((sample) => Object.keys(sample.labels).some((label) => label.startsWith('otel_')) || sample.name === 'target_info')).toEqual([]);
  });

  it('serves text that promtool check metrics accepts', { tags: ['promtool'] }, async () => {
    const { url, origin } = await start(['--metrics', '--key', `${KEY}:free`]);
    await fetch(`${url}/pets`, { headers: authed });
    await fetch(`${url}/pets`, create);
    await fetch(`${url}/pets/1`, { headers: authed });
    await fetch(`${url}/pets`);
    await fetch(`${origin}/nowhere`);
    const { text } = await scrape(origin);
    const check = spawnSync(promtoolPath()!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect({ status: check.status, output: check.stdout + check.stderr }).toEqual({ status: 0, output: '' });
  });

  it('names no key and no pet id in any label, whatever paths callers send', async () => {
    const { url, origin } = await start(['--metrics', '--key', `${KEY}:pro`]);
    const encoded = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    await fetch(`${url}/pets`, create);
    for (const path of [
      `${url}/pets/1`,
      `${url}/pets/12345`,
      `${url}/pets/${KEY}`,
      `${url}/pets/${encoded}`,
      `${url}/pets/1/extra`,
      `${url}/pets?api_key=${KEY}`,
      `${origin}/${KEY}`,
      `${origin}/v1/${KEY}/pets`,
    ]) {
      await fetch(path, { headers: authed });
      await fetch(path);
    }
    const { text } = await scrape(origin);
    const values = samples(text).flatMap((sample) => Object.values(sample.labels));
    expect(text).not.toContain(KEY);
    expect(text.toLowerCase()).not.toContain(encoded.toLowerCase());
    expect(values.filter((value) => /\/v1\/pets\/(?!\{petId\}$)|12345|redacted|extra/.test(value))).toEqual([]);
    const routes = new Set(samples(text).flatMap((sample) => (sample.labels.http_route === undefined ? [] : [sample.labels.http_route])));
    expect([...routes].sort()).toEqual(['/v1/pets', '/v1/pets/{petId}']);
  });

  it("answers /metrics with no key and outside the API's limits: scrapes spend no caller's budget, a banned address still scrapes, and its held answers are counted", async () => {
    const { url, origin } = await start(['--metrics', '--key', `${KEY}:free`]);
    // Scrapes have a budget of their own (metrics-access.test.ts): the API's is whole after them.
    for (let i = 0; i < 30; i++) expect((await scrape(origin)).status).toBe(200);
    const first = await fetch(`${url}/pets`);
    expect([first.status, first.headers.get('x-ratelimit-remaining')]).toEqual([401, '59']);
    let last: Response = first;
    for (let i = 0; i < 70 && last.status !== 429; i++) last = await fetch(`${url}/pets`);
    for (let i = 0; i < 11; i++) last = await fetch(`${url}/pets`);
    expect(await last.json()).toMatchObject({ code: 'key_banned' }); // this address is banned now
    const { status, text } = await scrape(origin);
    expect(status).toBe(200);
    expect(samples(text).find((sample) => sample.name === 'petstore_bans')?.value).toBe(1);
    // The ban's first answer and the one after it each waited the command's default second.
    expect(samples(text).filter((sample) => sample.name === 'petstore_ban_holds_total')).toEqual([
      { name: 'petstore_ban_holds_total', labels: { petstore_ban_hold_outcome: 'held' }, value: 2 },
    ]);
    expect(text).not.toContain('/metrics');
  });

  it('answers HEAD /metrics with the headers alone, and another method with a JSON 405 naming GET and HEAD', async () => {
    const { origin } = await start(['--metrics']);
    const head = await fetch(`${origin}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
    const post = await fetch(`${origin}/metrics`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.headers.get('content-type')).toBe('application/json');
    expect(await post.json()).toEqual({ code: 'method_not_allowed', message: 'POST is not allowed here; use GET, HEAD.', status: 405 });
  });

  it('says where the metrics are in its start lines, and that they take no key', async () => {
    const { stdout, origin } = await start(['--metrics']);
    expect(stdout()).toContain(`\nMetrics for Prometheus on ${origin}/metrics (no key: anyone who reaches the port can read them)\n`);
  });

  it('turns on with PETSTORE_METRICS=1, and refuses a value it cannot read in one line with exit code 2', async () => {
    const { origin } = await start([], { PETSTORE_METRICS: '1' });
    expect((await scrape(origin)).status).toBe(200);
    const refused = await runCli(['--port', '0'], { PETSTORE_METRICS: 'yes' }).exited;
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: 'petstore-service: PETSTORE_METRICS must be 1 or true to turn it on, 0 or false to leave it off, got "yes"; see --help\n',
    });
  });

  it('leaves /metrics to the API without --metrics: its JSON 404', async () => {
    const { origin, stdout } = await start([]);
    const response = await fetch(`${origin}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found', status: 404 });
    expect(stdout()).not.toContain('Metrics');
  });

  it.each<[string, string, string]>([
    [
      'the exporter and the process metrics',
      '@opentelemetry/exporter-prometheus,@opentelemetry/host-metrics',
      '@opentelemetry/exporter-prometheus @opentelemetry/host-metrics',
    ],
    ['the OpenTelemetry API', '@opentelemetry/api', '@opentelemetry/api'],
    ['the metrics SDK', '@opentelemetry/sdk-metrics', '@opentelemetry/sdk-metrics'],
  ])('names what to install in one line, with exit code 2, when --metrics cannot load %s', async (_, hidden, named) => {
    const run = runCli(['--port', '0', '--metrics'], { NODE_OPTIONS: importing('hide-packages.mjs'), HIDE_PACKAGES: hidden });
    expect(await run.exited).toEqual({ code: 2, stdout: '', stderr: `petstore-service: install ${named} to use --metrics\n` });
  });

  it('serves as before without @opentelemetry/api installed, when --metrics is not asked for', async () => {
    const { url, stderr } = await start(['--key', `${KEY}:pro`, '--log', 'json'], {
      NODE_OPTIONS: importing('hide-packages.mjs'),
      HIDE_PACKAGES: '@opentelemetry/api',
    });
    expect((await fetch(`${url}/pets`, { headers: authed })).status).toBe(200);
    expect(stderr()).toBe('');
  });
});

describe('petstore-service under an OpenTelemetry SDK of its user (node --import)', () => {
  it("records its metrics in the user's meter provider, without --metrics", async () => {
    const port = await freePort();
    const { url, origin } = await start(['--key', `${KEY}:pro`], {
      NODE_OPTIONS: importing('otel-metrics.mjs'),
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
    });
    expect((await fetch(`${url}/pets`, { headers: authed })).status).toBe(200);
    expect((await fetch(`${url}/pets`)).status).toBe(401);
    expect((await fetch(`${origin}/metrics`)).status).toBe(404); // the command serves none of its own: a request like any other
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const counts = samples(text).filter((sample) => sample.name === 'http_server_request_duration_count');
    expect(counts.map(({ labels, value }) => [labels.http_route, labels.http_response_status_code, value])).toEqual([
      ['/v1/pets', '200', 1],
      ['/v1/pets', '401', 1],
      [undefined, '404', 1],
    ]);
  });
});

describe('petstore-service --log json under an OpenTelemetry SDK (node --import)', () => {
  const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
  const traceparent = `00-${TRACE}-00f067aa0ba902b7-01`;

  /** The access log's JSON lines once there are `count`. */
  async function logLines(stdout: () => string, count: number): Promise<Record<string, unknown>[]> {
    const lines = () =>
      stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'));
    await expect.poll(() => lines().length, { timeout: 5_000 }).toBeGreaterThanOrEqual(count);
    return lines().map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it("writes each request's trace id as trace: the caller's from its traceparent, else the new trace's", async () => {
    const { url, stdout } = await start(['--key', `${KEY}:pro`, '--log', 'json'], { NODE_OPTIONS: importing('otel-tracing.mjs') });
    expect((await fetch(`${url}/pets`, { headers: { ...authed, traceparent } })).status).toBe(200);
    expect((await fetch(`${url}/pets`, { headers: authed })).status).toBe(200);
    const [continued, fresh] = await logLines(stdout, 2);
    expect(continued).toMatchObject({ method: 'GET', path: '/v1/pets', status: 200, trace: TRACE });
    expect(fresh!.trace).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh!.trace).not.toBe(TRACE);
    expect(fresh!.trace).not.toBe('0'.repeat(32));
  });

  it('writes no trace without an SDK: the line is as it always was', async () => {
    const { url, stdout } = await start(['--key', `${KEY}:pro`, '--log', 'json']);
    expect((await fetch(`${url}/pets`, { headers: { ...authed, traceparent } })).status).toBe(200);
    const [line] = await logLines(stdout, 1);
    expect(Object.keys(line!)).toEqual(['time', 'method', 'path', 'status', 'ms', 'caller']);
  });
});
