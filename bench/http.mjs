// HTTP benchmarks: autocannon (in this process) against servers in their own processes, A B A B.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
const KEY = 'bench-enterprise-key';

/** Starts `node bench/http-server.mjs <kind>` and resolves to its base URL and a stop function. */
async function startServer(kind) {
  const child = spawn(process.execPath, ['bench/http-server.mjs', kind, KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  while (!/ready (\d+)/.test(output)) {
    if (child.exitCode !== null) throw new Error(`${kind} server exited: ${output}`);
    await once(child.stdout, 'data');
  }
  return { url: `http://127.0.0.1:${/ready (\d+)/.exec(output)[1]}`, stop: () => child.kill() };
}

/** One autocannon run: requests per second and latency percentiles in microseconds. */
async function load(options, seconds) {
  const latency = createHistogram();
  const instance = autocannon({ connections: 10, duration: seconds, ...options });
  instance.on('response', (_client, _status, _bytes, ms) => latency.record(Math.max(1, Math.round(ms * 1000))));
  const result = await instance;
  return {
    rps: result.requests.average,
    p50: latency.percentile(50),
    p99: latency.percentile(99),
    non2xx: result.non2xx,
    statuses: result.statusCodeStats,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** Median of each figure over the passes. */
function summarize(runs) {
  return { rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)), runs };
}

/**
 * Runs every scenario `passes` times, alternating between them inside each pass, so that
 * machine noise hits all of them alike. Resolves to medians per scenario.
 */
export async function httpBenchmarks({ passes, seconds }) {
  const servers = { petstore: await startServer('petstore'), whatwg: await startServer('whatwg'), raw: await startServer('raw') };
  const auth = { authorization: `Bearer ${KEY}` };
  const scenarios = {
    'GET /v1/pets — petstore-service': { url: `${servers.petstore.url}/v1/pets`, headers: auth },
    'GET — bare @whatwg-node/server adapter': { url: `${servers.whatwg.url}/v1/pets`, headers: auth },
    'GET — raw node:http': { url: `${servers.raw.url}/v1/pets`, headers: auth },
    'POST /v1/pets — petstore-service': {
      url: `${servers.petstore.url}/v1/pets`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'sold' }),
    },
    'GET /v1/pets without a key (401 flood) — petstore-service': { url: `${servers.petstore.url}/v1/pets` },
  };
  const runs = Object.fromEntries(Object.keys(scenarios).map((name) => [name, []]));
  try {
    // A short warm-up per scenario, so JIT compilation is not measured.
    for (const options of Object.values(scenarios)) await load(options, 1);
    for (let pass = 0; pass < passes; pass++) {
      for (const [name, options] of Object.entries(scenarios)) runs[name].push(await load(options, seconds));
    }
  } finally {
    for (const server of Object.values(servers)) server.stop();
  }
  return Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, summarize(list)]));
}
