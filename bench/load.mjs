// Load machinery the HTTP benchmarks share: start a server process (pinned to its own core), run autocannon on it in short paired rounds, read its CPU.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { SEED_KEY, SEEDED } from './peers/same-work.mjs';
import { median, medianInterval } from './stats.mjs';

export { SEED_KEY, SEEDED } from './peers/same-work.mjs';
/** A number in en-US style with `digits` decimals. */
export { fixed as f, median } from './stats.mjs';

/** The enterprise key every server is given. */
export const KEY = 'bench-enterprise-key';

/**
 * Where the bench and the servers run: with two cores or more and `taskset`, the bench process
 * (autocannon) on core 0 and every server on core 1, so that the load generator never takes the
 * server's core from it; else `undefined` and nothing is pinned.
 */
export const PINNING = cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0 ? { bench: 0, servers: 1 } : undefined;

/** `command` (an argv) run on the servers' core when {@link PINNING} allows, as is otherwise. */
export const pinned = (command) => (PINNING ? ['taskset', '-c', String(PINNING.servers), ...command] : command);

/** `command` (an argv) free to run on every core, as a child of the pinned bench would not be: the scripts that measure no ratio of servers. */
export const unpinned = (command) => (PINNING ? ['taskset', '-c', `0-${cpus().length - 1}`, ...command] : command);

let benchPinned = false;
/** Pins this process, every thread of it, to the bench's core (once; nothing without {@link PINNING}). */
export function pinBench() {
  if (!PINNING || benchPinned) return;
  execFileSync('taskset', ['-a', '-p', '-c', String(PINNING.bench), String(process.pid)], { stdio: 'ignore' });
  benchPinned = true;
}

/** One sentence for BENCHMARKS.md's header: what ran where. */
export const pinningNote = () =>
  PINNING
    ? `the bench process (autocannon) pinned to core ${PINNING.bench} and every server (with its child processes: workerd under Miniflare) to core ${PINNING.servers} (\`taskset\`)`
    : `nothing pinned (${cpus().length < 2 ? 'one core' : 'no `taskset` on this machine'}): the load generator and the servers share the cores`;

/**
 * Starts `<command> [args]` (on the servers' core) and resolves, once it prints `ready <port>`, to
 * its base URL, process id and a stop function. By default `node bench/http-server.mjs <kind> <key>`.
 * A server that prints `ready <port> unseeded [header]` is seeded over HTTP here, as the command is,
 * and told callers' addresses by that header (`addressHeader`), if it names one. `env` adds to its environment.
 */
export async function startServer(kind, flags = [], command = [process.execPath, ...flags, 'bench/http-server.mjs', kind, KEY], env = {}) {
  const argv = pinned(command);
  // taskset execs the command, so the child's pid is the server's.
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
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

/** `pid` and every process below it (Miniflare's workerd is a child of the server's node), from /proc. */
function processTree(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * CPU time of one process so far, in µs: the sum over its threads of the first field of
 * /proc/<pid>/task/<tid>/schedstat (ns on a CPU, exact), or, where the kernel has no schedstat,
 * user + system from /proc/<pid>/stat (clock ticks of 10 ms: ±2 % on a 0.5 s block). A thread
 * that ended between two readings takes its time with it; node's and workerd's threads live as long as the process.
 */
function processMicros(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread ended while we looked.
      }
    }
    return ns / 1000;
  } catch {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  }
}

/** Whether this kernel keeps per-thread schedstat (else CPU comes from /proc/<pid>/stat's 10 ms ticks). */
export const SCHEDSTAT = (() => {
  try {
    readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8');
    return true;
  } catch {
    return false;
  }
})();

const trees = new Map();
/** CPU µs so far of a server: its process and every process it started (cached once seen). */
export const cpuMicros = (pid) => {
  if (!trees.has(pid)) trees.set(pid, processTree(pid));
  return trees.get(pid).reduce((sum, member) => sum + processMicros(member), 0);
};

/**
 * Requests a block sends of a job's list (`options.requests`): at most this many, the next slice
 * each block. autocannon builds every request of the list for each of its 10 connections before
 * it starts: the 401 scenario's 10,000 addresses took 1.4–2.5 s a block, for a 0.5 s block.
 */
const WINDOW = 1_000;
const blocks = new WeakMap();
/** `options` with the job's next slice of {@link WINDOW} requests, when it has more: over ten blocks every request is sent. */
function windowed(job) {
  const { requests } = job.options;
  if (!requests || requests.length <= WINDOW) return job.options;
  const block = blocks.get(job) ?? 0;
  blocks.set(job, block + 1);
  const start = (block * WINDOW) % requests.length;
  return { ...job.options, requests: requests.slice(start, start + WINDOW) };
}

/**
 * One block of load: autocannon for `seconds` (fractions allowed), req/s (answers ÷ the block's
 * wall time once autocannon has built its requests), latency percentiles in µs, and with the
 * server's `pid` its CPU µs per answer. Throws when any answer had another status than `status`,
 * or a request failed: then it measured something else.
 */
export async function load(job, seconds) {
  const { name, status, pid } = job;
  const latency = createHistogram();
  const cpuBefore = pid && cpuMicros(pid);
  // autocannon ends a run at its first sample tick after `duration`: a 1 s tick would stretch a 0.5 s block to 1 s.
  const instance = autocannon({ connections: 10, duration: seconds, sampleInt: 25, ...windowed(job) });
  // Its constructor builds the requests and opens the connections; the block's time starts now.
  const started = performance.now();
  instance.on('response', (_client, _status, _bytes, ms) => latency.record(Math.max(1, Math.round(ms * 1000))));
  const result = await instance;
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = pid && cpuMicros(pid);
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  if (Object.keys(statuses).some((code) => Number(code) !== status) || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${name}: expected only ${status} answers, got ${JSON.stringify(statuses)}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const answered = result.requests.total;
  const cpu = pid ? { cpu: answered ? (cpuAfter - cpuBefore) / answered : Number.NaN } : {};
  return { rps: answered / elapsed, p50: latency.percentile(50), p99: latency.percentile(99), answered, ...cpu };
}

/** The longest warm-up block, in s: as a measured block, so a windowed job sends each address no more often (see {@link WINDOW}). */
const WARMUP_BLOCK = 0.5;

/** How often a block that got no answer at all (a starved server core) is run again before the bench gives up. */
const TRIES = 3;
/** One block of {@link load} with at least one answer: a block of none has no req/s ratio nor CPU per answer to give. */
async function answeredBlock(job, seconds) {
  for (let attempt = 1; ; attempt++) {
    const run = await load(job, seconds);
    if (run.answered > 0) return run;
    if (attempt === TRIES) throw new Error(`${job.name}: no answer in ${TRIES} blocks of ${seconds} s: the server's core is starved`);
  }
}

/** Median of each figure over the rounds (`cpu` too when the runs have it), with the runs. */
export function summarize(runs) {
  const cpu = runs.every((r) => r.cpu !== undefined) ? { cpu: median(runs.map((r) => r.cpu)) } : {};
  return { rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)), ...cpu, runs };
}

/** Each round's `figure(a's run, b's run)`, in round order: the paired values an interval is taken of. */
export const perRound = (a, b, figure) => a.runs.map((run, round) => figure(run, b.runs[round]));

/** `a`'s req/s ÷ `b`'s, per round: median and 95 % bootstrap interval (`{ median, low, high }`). */
export const ratioPerRound = (a, b) => medianInterval(perRound(a, b, (x, y) => x.rps / y.rps));

/**
 * `b`'s server CPU per answer ÷ `a`'s, per round: the req/s ratio `a ÷ b` would have at equal CPU,
 * steadier than req/s when other work shares the machine (both need a `pid`). Median and interval.
 */
export const cpuRatioPerRound = (a, b) => medianInterval(perRound(a, b, (x, y) => y.cpu / x.cpu));

/** `a`'s server CPU per answer ÷ `b`'s, per round (the floor goals: at most so many times the floor's CPU). Median and interval. */
export const cpuCostPerRound = (a, b) => medianInterval(perRound(a, b, (x, y) => x.cpu / y.cpu));

/** `runs`' p99 ÷ p50, per round: median and interval. */
export const tailPerRound = ({ runs }) => medianInterval(runs.map((run) => run.p99 / run.p50));

/**
 * Runs every job (`{ name, status, options, pid? }`, as `load` takes it) for `warmup` s, so JIT
 * compilation is not measured, then `rounds` rounds: in each, every group's jobs one block of
 * `seconds` each, in an order rotating with the round, so that none always goes first and the
 * machine's noise hits the jobs of a group alike. A ratio is then taken within each round (the two
 * blocks seconds apart) and its median over the rounds reported with an interval. Pins this process
 * to the bench's core first ({@link pinBench}). Resolves to a Map of each job's runs, in round order.
 * `onRound(round)` is told when each round begins (for progress lines).
 */
export async function takeTurns(groups, { rounds, seconds, warmup = 1, onRound }) {
  pinBench();
  const jobs = groups.flat();
  // In blocks of at most WARMUP_BLOCK s, each with the job's next slice of requests: one long block
  // sent the 401's slice of 1,000 addresses 60 times each and spent the anonymous quota (429s).
  for (const job of jobs) for (let left = warmup; left > 0; left -= WARMUP_BLOCK) await load(job, Math.min(WARMUP_BLOCK, left));
  const runs = new Map(jobs.map((job) => [job, []]));
  for (let round = 0; round < rounds; round++) {
    onRound?.(round);
    for (const group of groups) {
      for (let i = 0; i < group.length; i++) {
        const job = group[(i + round) % group.length];
        runs.get(job).push(await answeredBlock(job, seconds));
      }
    }
  }
  return runs;
}

/** The value of a script's `--name=value` argument, or `fallback` when it has none. */
export const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

/**
 * Rounds and seconds a block for a script run alone: `--rounds=` and `--seconds=` if given (smoke
 * tests: `--rounds=4 --seconds=0.3`), else {@link QUICK} with `--quick`, else {@link FULL}.
 */
export const roundSettings = () => {
  const base = process.argv.includes('--quick') ? QUICK : FULL;
  return {
    ...base,
    rounds: Number(option('rounds', base.rounds)),
    seconds: Number(option('seconds', base.seconds)),
    warmup: Number(option('warmup', base.warmup)),
  };
};
/** A full run's rounds: 24 rounds of 0.5 s a side, after 2 s of warm-up per job (each server 10 s or more in all: V8 deoptimizes node:http's code 6–8 s into a load and settles by ~10 s, BENCHMARKS.md findings of #49). */
export const FULL = { rounds: 24, seconds: 0.5, warmup: 2 };
/** `--quick`: 12 rounds of 0.3 s, 1.5 s of warm-up per job. */
export const QUICK = { rounds: 12, seconds: 0.3, warmup: 1.5 };
