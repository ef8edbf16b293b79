// Load machinery the HTTP benchmarks share: start a server process, run autocannon on it, take turns, take medians.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { SEED_KEY, SEEDED } from './peers/same-work.mjs';

export { SEED_KEY, SEEDED } from './peers/same-work.mjs';

/** The enterprise key every server is given. */
export const KEY = 'bench-enterprise-key';

/**
 * Starts `<command> [args]` and resolves, once it prints `ready <port>`, to its base URL, process
 * id and a stop function. By default `node bench/http-server.mjs <kind> <key>`. A server that
 * prints `ready <port> unseeded [header]` is seeded over HTTP here, as the command is, and told
 * callers' addresses by that header (`addressHeader`), if it names one.
 */
export async function startServer(kind, flags = [], command = [process.execPath, ...flags, 'bench/http-server.mjs', kind, KEY]) {
  const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  while (!/ready (\d+)(.*)\n/.test(output)) {
    if (child.exitCode !== null) throw new Error(`${kind} server exited: ${output}`);
    await Promise.race([once(child.stdout, 'data'), once(child, 'exit')]);
  }
  const [, port, rest] = /ready (\d+)(.*)\n/.exec(output);
  const server = { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill() };
  const unseeded = /^ unseeded(?: (\S+))?$/.exec(rest);
  if (!unseeded) return server;
  await seed(server.url);
  return unseeded[1] ? { ...server, addressHeader: unseeded[1] } : server;
}

/** Creates the seeded pets over the API with the seeding key, one at a time, in the order bench/http-server.mjs stores them (ids 1 to 100). */
export async function seed(url) {
  for (let i = 1; i <= SEEDED; i++) {
    const response = await fetch(`${url}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SEED_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `pet ${i}`, categoryId: i % 5, status: 'available' }),
    });
    if (response.status !== 201) throw new Error(`seeding ${url}: pet ${i} answered ${response.status} ${await response.text()}`);
  }
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
export async function load({ name, status, options, pid }, seconds) {
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

/** Median of each figure over the passes (`cpu` too when the runs have it). */
export function summarize(runs) {
  const cpu = runs.every((r) => r.cpu !== undefined) ? { cpu: median(runs.map((r) => r.cpu)) } : {};
  return { rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)), ...cpu, runs };
}

/** The median over the passes of `a`'s req/s ÷ `b`'s in the same pass: the ratio the targets use, as steady as a shared machine allows. */
export const ratioPerPass = (a, b) => median(a.runs.map((run, pass) => run.rps / b.runs[pass].rps));

/**
 * The median over the passes of `b`'s server CPU per answer ÷ `a`'s: the req/s ratio `a ÷ b` would
 * have at equal CPU, steadier than req/s when other work shares the machine (both need a `pid`).
 */
export const cpuRatioPerPass = (a, b) => median(a.runs.map((run, pass) => b.runs[pass].cpu / run.cpu));

/**
 * Runs every job (`{ name, status, options, pid? }`, as `load` takes it) for 1 s to warm up, then each
 * group `passes` times, its jobs taking turns in an order rotating with the pass, so that none
 * always goes first and machine noise hits them alike. Resolves to a Map of each job's runs, in pass order.
 * `onPass(pass)` is told when each pass begins (for progress lines).
 */
export async function takeTurns(groups, { passes, seconds, onPass }) {
  const jobs = groups.flat();
  // A short warm-up per job, so JIT compilation is not measured.
  for (const job of jobs) await load(job, 1);
  const runs = new Map(jobs.map((job) => [job, []]));
  for (let pass = 0; pass < passes; pass++) {
    onPass?.(pass);
    for (const group of groups) {
      for (let i = 0; i < group.length; i++) {
        const job = group[(i + pass) % group.length];
        runs.get(job).push(await load(job, seconds));
      }
    }
  }
  return runs;
}

/** The value of a script's `--name=value` argument, or `fallback` when it has none. */
export const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

/** A number in en-US style with `digits` decimals. */
export const f = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
