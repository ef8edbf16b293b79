// The command on `--data` (PGlite) under a mixed load, against the same command on memory (#28).
// `node bench/data-mixed.mjs [--quick] [--passes=N] [--seconds=S]` (after `npm run build`) runs it
// alone and prints its section; bench/index.mjs can run it through the exports.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistogram } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { option, pinBench, pinned } from './load.mjs';
import { median, medianInterval, meets, shown } from './stats.mjs';

/** The goal: the command on `--data` serves the mixed load at least this many req/s. */
export const DATA_MIXED_GOAL = 5_000;
const CONNECTIONS = 20;
const KEY = 'bench-data-mixed-key';
/** Pets created before the load: the first page is a full 20. */
const SEEDED = 100;
const SERVERS = { data: '`--data <dir>` (PGlite)', memory: 'memory (no `--data`)' };

/**
 * The mix, as the sequence each connection sends over and over: of 20 requests, 12 list the first
 * page, 5 create, 2 carry a key the server does not know, 1 gets a pet by id. The wrong keys come
 * from one address, so after its anonymous budget they get 429 (rate_limited, then key_banned):
 * 401 and 429 both count as the wrong key's answer.
 */
function requests() {
  const auth = { authorization: `Bearer ${KEY}` };
  const list = { method: 'GET', path: '/v1/pets?limit=20', headers: auth };
  const create = {
    method: 'POST',
    path: '/v1/pets',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Mixed', categoryId: 3, status: 'available' }),
  };
  const wrong = { method: 'GET', path: '/v1/pets?limit=20', headers: { authorization: 'Bearer not-a-key-of-this-server' } };
  const get = { method: 'GET', path: '/v1/pets/1', headers: auth };
  const mix = [list, create, list, list, wrong, list, create, list, list, get, list, create, list, list, wrong, list, create, list, list, create];
  return mix;
}
/** What each answer may be, and the share of all requests each kind is. */
const SHARES = { list: 0.6, create: 0.25, wrong: 0.1, get: 0.05 };

/** Starts `node dist/cli/index.js --port 0 --quiet --key … [args]` on the servers' core and resolves once it says where it listens. */
async function startCommand(args) {
  // --ban-hold-ms 0: the wrong key's address is banned within seconds, and a held 429 would stall its connection a second (#49's hold)
  // where this scenario measures the stores.
  const argv = pinned([
    process.execPath,
    'dist/cli/index.js',
    '--port',
    '0',
    '--quiet',
    '--ban-hold-ms',
    '0',
    '--key',
    `${KEY}:enterprise:1000000000:1000000000`,
    ...args,
  ]);
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  let url;
  while (!(url = /listening on (http:\/\/[^/\s]+)\/v1\n/.exec(output)?.[1])) {
    if (child.exitCode !== null) throw new Error(`the command exited (${child.exitCode}): ${output}`);
    await Promise.race([once(child.stdout, 'data'), once(child, 'exit')]);
  }
  return { url, pid: child.pid, stop: () => child.kill() };
}

async function seed(url) {
  for (let i = 1; i <= SEEDED; i++) {
    const response = await fetch(`${url}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `pet ${i}`, categoryId: i % 5, status: 'available' }),
    });
    if (response.status !== 201) throw new Error(`seeding ${url}: pet ${i} answered ${response.status} ${await response.text()}`);
  }
}

/**
 * One autocannon run of the mix: req/s, p50 and p99 in µs, and the answers by status. Throws when
 * an answer is none of 200, 201, 401, 429, or the creates' 201s are not their share: then it
 * measured something else.
 */
async function run(url, seconds) {
  const latency = createHistogram();
  const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: requests() });
  instance.on('response', (_client, _status, _bytes, ms) => latency.record(Math.max(1, Math.round(ms * 1000))));
  const result = await instance;
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const odd = Object.keys(statuses).filter((code) => !['200', '201', '401', '429'].includes(code));
  const wrong = (statuses[401] ?? 0) + (statuses[429] ?? 0);
  // 2 % of the answers, or two per connection: each may stop partway through its cycle of 20, which a short run's shares show.
  const off = (count, share) => Math.abs(count - share * total) > Math.max(0.02 * total, 2 * CONNECTIONS);
  if (odd.length > 0 || result.errors > 0 || result.timeouts > 0 || off(statuses[201] ?? 0, SHARES.create) || off(wrong, SHARES.wrong)) {
    throw new Error(`${url}: answers ${JSON.stringify(statuses)}, ${result.errors} errors, ${result.timeouts} timeouts: not the mix`);
  }
  return { rps: result.requests.average, p50: latency.percentile(50), p99: latency.percentile(99), statuses };
}

/**
 * Starts the command on a fresh `--data` directory and on memory, seeds each with 100 pets over
 * HTTP, warms both up for 1 s, then runs the mix on each `passes` times, taking turns (the order
 * alternating). Resolves to each server's medians (`rps`, `p50`, `p99` in µs) with its `runs`, the
 * interval of `--data`'s median req/s (`dataRps`) and `--data` ÷ memory per pass (`ratio`), median and interval.
 *
 * @example
 * const result = await dataMixedBenchmark({ passes: 3, seconds: 3 });
 */
export async function dataMixedBenchmark({ passes, seconds }) {
  const directory = mkdtempSync(join(tmpdir(), 'petstore-bench-data-'));
  const servers = {};
  pinBench();
  try {
    servers.data = await startCommand(['--data', join(directory, 'data')]);
    servers.memory = await startCommand([]);
    for (const server of Object.values(servers)) await seed(server.url);
    for (const server of Object.values(servers)) await run(server.url, 1);
    const runs = { data: [], memory: [] };
    for (let pass = 0; pass < passes; pass++) {
      const order = pass % 2 ? ['memory', 'data'] : ['data', 'memory'];
      for (const kind of order) runs[kind].push(await run(servers[kind].url, seconds));
    }
    const summary = (r) => ({ rps: median(r.map((x) => x.rps)), p50: median(r.map((x) => x.p50)), p99: median(r.map((x) => x.p99)), runs: r });
    const ratio = medianInterval(runs.data.map((run, pass) => run.rps / runs.memory[pass].rps));
    return { data: summary(runs.data), memory: summary(runs.memory), dataRps: medianInterval(runs.data.map((run) => run.rps)), ratio, passes, seconds };
  } finally {
    for (const server of Object.values(servers)) server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

const f = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * The target row for BENCHMARKS.md, as bench/index.mjs lists them: `[name, goal, measured, met]`,
 * met when the interval of the median req/s is at or above the goal.
 *
 * @example
 * const [[name, goal, measured, ok]] = dataMixedTargets(result);
 */
export const dataMixedTargets = (result) => [
  [
    'The command on `--data` (PGlite), mixed load (60 % list, 25 % create, 10 % wrong key, 5 % get), 20 connections',
    `≥ ${f(DATA_MIXED_GOAL)} req/s`,
    `${f(result.data.rps)} req/s (${f(result.dataRps.low)}–${f(result.dataRps.high)})`,
    meets(result.dataRps, DATA_MIXED_GOAL),
  ],
];

/**
 * The section for BENCHMARKS.md, as Markdown.
 *
 * @example
 * console.log(dataMixedSection(await dataMixedBenchmark({ passes: 5, seconds: 5 })));
 */
export function dataMixedSection(result) {
  const rows = Object.entries(SERVERS).map(([kind, name]) => {
    const r = result[kind];
    return `| ${name} | ${f(r.rps)} (${r.runs.map((x) => f(x.rps)).join(' · ')}) | ${f(r.p50)} | ${f(r.p99)} |`;
  });
  const met = meets(result.dataRps, DATA_MIXED_GOAL);
  return `## The command on \`--data\` (PGlite) under a mixed load

\`node dist/cli/index.js --port 0 --quiet --ban-hold-ms 0 --key <key>:enterprise:… [--data <fresh dir>]\`, ${SEEDED} pets created
over HTTP first, then autocannon with ${CONNECTIONS} connections, each sending the same 20 requests over and
over: 12 \`GET /v1/pets?limit=20\` (60 %), 5 \`POST /v1/pets\` (25 %), 2 with a key the server does not
know (10 %: 401, and 429 once their one address has spent its anonymous budget or is banned), 1
\`GET /v1/pets/1\` (5 %). Every answer is checked to be one of those, in those shares. ${result.passes} passes of
${result.seconds} s, the two servers taking turns; medians (each pass's req/s in brackets); a goal is met when the
95 % bootstrap interval of the median is.
\`--quiet\`: the access log's cost is measured elsewhere.

| Store | req/s (per pass) | p50 µs | p99 µs |
| --- | --- | --- | --- |
${rows.join('\n')}

Goal ≥ ${f(DATA_MIXED_GOAL)} req/s on \`--data\`: ${f(result.data.rps)} (${f(result.dataRps.low)}–${f(result.dataRps.high)}), ${met ? '✅ met' : '❌ not met'}; ${shown(result.ratio)} memory's, per pass.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const settings = { passes: Number(option('passes') ?? (quick ? 2 : 5)), seconds: Number(option('seconds') ?? (quick ? 2 : 5)) };
  const started = Date.now();
  const result = await dataMixedBenchmark(settings);
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s in all, Node ${process.version}\n`);
  console.log(dataMixedSection(result));
}
