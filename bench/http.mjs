// HTTP benchmarks: autocannon (in this process) against servers in their own processes, taking turns.
// `node bench/http.mjs [--quick]` (after `npm run build`) runs them alone and prints the tables.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createHistogram } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { assertSameWork, SCENARIOS } from './peers/same-work.mjs';

/** The enterprise key every server is given. */
export const KEY = 'bench-enterprise-key';
/** The servers doing the same work, ours first: the others' ratios are to it. */
export const PEERS = { petstore: 'petstore-service', fastify: 'Fastify 5', hono: 'Hono 4 (@hono/node-server)' };
/** Servers doing less than the work, for the GET ratios of the targets. */
const BASELINES = { whatwg: 'GET — bare @whatwg-node/server adapter', raw: 'GET — raw node:http' };
/** A latency tail this many times the median or less is the goal for every row. */
export const TAIL_GOAL = 3;

/** Starts `node [flags] bench/http-server.mjs <kind>` and resolves to its base URL, its process id and a stop function. */
export async function startServer(kind, flags = []) {
  const child = spawn(process.execPath, [...flags, 'bench/http-server.mjs', kind, KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  while (!/ready (\d+)/.test(output)) {
    if (child.exitCode !== null) throw new Error(`${kind} server exited: ${output}`);
    await once(child.stdout, 'data');
  }
  return { url: `http://127.0.0.1:${/ready (\d+)/.exec(output)[1]}`, pid: child.pid, stop: () => child.kill() };
}

/** User plus system CPU of a process so far, in µs (from /proc, in clock ticks of 10 ms). */
export const cpuMicros = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

/**
 * One autocannon run: requests per second and latency percentiles in microseconds. Throws when
 * any answer had another status than `status`, or a request failed: then it measured something else.
 * `answered` counts the answers autocannon saw; with the server's `pid`, `cpu` is its CPU µs per answer.
 */
async function load({ name, status, options, pid }, seconds) {
  const latency = createHistogram();
  const cpuBefore = pid && cpuMicros(pid);
  const instance = autocannon({ connections: 10, duration: seconds, ...options });
  instance.on('response', (_client, _status, _bytes, ms) => latency.record(Math.max(1, Math.round(ms * 1000))));
  const result = await instance;
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  if (Object.keys(statuses).some((code) => Number(code) !== status) || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${name}: expected only ${status} answers, got ${JSON.stringify(statuses)}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const cpu = pid ? { cpu: (cpuMicros(pid) - cpuBefore) / result.requests.total } : {};
  return { rps: result.requests.average, p50: latency.percentile(50), p99: latency.percentile(99), answered: result.requests.total, ...cpu };
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** Median of each figure over the passes. */
export function summarize(runs) {
  return { rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)), runs };
}

/**
 * Starts our server, the peers and the baselines; checks that ours and the peers answer every
 * scenario alike (bench/peers/same-work.mjs), then runs each scenario on each server `passes`
 * times, taking turns within each pass (the peers' order rotating between passes), so machine
 * noise hits all of them alike. Resolves to medians, `peers[scenario][server]` and
 * `baselines[name]`, and `sameWork`: how many answers were compared per server.
 */
export async function httpBenchmarks({ passes, seconds }) {
  const servers = {};
  try {
    for (const kind of [...Object.keys(PEERS), ...Object.keys(BASELINES)]) servers[kind] = await startServer(kind);
    const sameWork = await assertSameWork(Object.fromEntries(Object.keys(PEERS).map((kind) => [kind, servers[kind].url])), KEY);
    // Jobs in groups: each scenario's servers, then each baseline alone.
    const groups = Object.entries(SCENARIOS).map(([scenario, spec]) =>
      Object.keys(PEERS).map((kind) => ({
        scenario,
        kind,
        name: `${spec.short} — ${PEERS[kind]}`,
        status: spec.status,
        options: spec.load(servers[kind].url, KEY),
      })),
    );
    for (const [kind, name] of Object.entries(BASELINES)) {
      groups.push([{ baseline: true, kind, name, status: 200, options: SCENARIOS.list.load(servers[kind].url, KEY) }]);
    }
    const runs = await takeTurns(groups, { passes, seconds });
    return { ...results(groups.flat(), runs), sameWork };
  } finally {
    for (const server of Object.values(servers)) server.stop();
  }
}

/**
 * Runs every job (`{ name, status, options, pid? }`, as `load` takes it) for 1 s to warm up, then each
 * group `passes` times, its jobs taking turns in an order rotating with the pass, so that none
 * always goes first and machine noise hits them alike. Resolves to a Map of each job's runs, in pass order.
 */
export async function takeTurns(groups, { passes, seconds }) {
  const jobs = groups.flat();
  // A short warm-up per job, so JIT compilation is not measured.
  for (const job of jobs) await load(job, 1);
  const runs = new Map(jobs.map((job) => [job, []]));
  for (let pass = 0; pass < passes; pass++) {
    for (const group of groups) {
      for (let i = 0; i < group.length; i++) {
        const job = group[(i + pass) % group.length];
        runs.get(job).push(await load(job, seconds));
      }
    }
  }
  return runs;
}

/** The runs as medians, each peer's req/s ratio to ours per pass and its median. */
function results(jobs, runs) {
  const peers = {};
  const baselines = {};
  for (const job of jobs) {
    if (job.baseline) baselines[job.name] = summarize(runs.get(job));
    else (peers[job.scenario] ??= {})[job.kind] = summarize(runs.get(job));
  }
  for (const byServer of Object.values(peers)) {
    const ours = byServer.petstore.runs;
    for (const summary of Object.values(byServer)) {
      summary.ratios = summary.runs.map((run, pass) => run.rps / ours[pass].rps);
      summary.ratio = median(summary.ratios);
      summary.oursOver = median(summary.runs.map((run, pass) => ours[pass].rps / run.rps));
    }
  }
  return { peers, baselines };
}

const f = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The same-work table, one row per scenario and server, as Markdown lines. */
export function peerRows({ peers }) {
  const rows = [
    `| Scenario | Server | req/s | × ours | p50 µs | p99 µs | p99 ≤ ${TAIL_GOAL}× p50 | req/s per pass |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [scenario, byServer] of Object.entries(peers)) {
    for (const [kind, r] of Object.entries(byServer)) {
      const tail = r.p99 / r.p50;
      rows.push(
        `| ${SCENARIOS[scenario].title} | ${PEERS[kind]} | ${f(r.rps)} | ${kind === 'petstore' ? '1' : f(r.ratio, 2)}× | ${f(r.p50)} | ${f(r.p99)} | ` +
          `${tail <= TAIL_GOAL ? '✅' : '❌'} ${f(tail, 2)}× | ${r.runs.map((run) => f(run.rps)).join(' · ')} |`,
      );
    }
  }
  return rows;
}

/** The baseline rows (ours, the bare adapter, raw node:http on GET) as Markdown lines. */
export function baselineRows({ peers, baselines }) {
  const rows = { [`GET /v1/pets — ${PEERS.petstore}`]: peers.list.petstore, ...baselines };
  return Object.entries(rows).map(([name, r]) => `| ${name} | ${f(r.rps)} | ${f(r.p50)} | ${f(r.p99)} | ${r.runs.map((run) => f(run.rps)).join(' · ')} |`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const settings = quick ? { passes: 2, seconds: 1.5 } : { passes: 5, seconds: 3 };
  const started = Date.now();
  const http = await httpBenchmarks(settings);
  console.log(`${settings.passes} passes × ${settings.seconds} s, ${((Date.now() - started) / 1000).toFixed(0)} s in all, Node ${process.version}\n`);
  console.log(['| Scenario | req/s (median) | p50 µs | p99 µs | req/s per pass |', '| --- | --- | --- | --- | --- |', ...baselineRows(http)].join('\n'));
  console.log(`\n${peerRows(http).join('\n')}`);
}
