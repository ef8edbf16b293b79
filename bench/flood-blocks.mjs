// Blocks of load sent at once (a valid caller and a flood on one server), every request accounted for (answered, cut by the client at the block's end, or left unanswered by the server), and the paired rounds of bench/flood-fairness.mjs built of them.
import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { cpuMicros } from './load.mjs';
import { medianInterval } from './stats.mjs';

/**
 * autocannon's timeout in seconds (its default, said here because it matters): a request unanswered
 * this long is a failure. A server holding a banned caller's 429 for about a second is far within it.
 */
const TIMEOUT_SECONDS = 10;

/**
 * Starts one autocannon instance for `job` and counts, per connection, the requests it wrote and the
 * answers it read. autocannon calls `setupClient` before a connection's first request, so every
 * request is seen; at the block's end it destroys its connections without a word, so a request then
 * in flight is neither an error nor an answer, only `sent` minus `answered`.
 */
function start(job, seconds) {
  const connections = [];
  const latency = createHistogram();
  const instance = autocannon({
    connections: 10,
    duration: seconds,
    timeout: TIMEOUT_SECONDS,
    ...job.options,
    setupClient: (client) => {
      const counts = { sent: 0, answered: 0, closing: 0 };
      connections.push(counts);
      client.on('request', () => counts.sent++);
      client.on('response', () => counts.answered++);
      // An answer that ends its connection: the request autocannon writes after it is never read, by the server's choice.
      // (http-parser-js hands autocannon one info object; if it ever does not, none counts and a close shows as a drop.)
      client.on('headers', (info) => {
        if (info?.shouldKeepAlive === false) counts.closing++;
      });
    },
  });
  instance.on('response', (_client, _status, _bytes, ms) => latency.record(Math.max(1, Math.round(ms * 1000))));
  return { job, instance, connections, latency };
}

/**
 * What one job's block measured. Each connection sends one request at a time, so at most one per
 * connection can be in flight when the block ends: that one is `cut` (the client closed, the server
 * may still have been holding its answer). Any other request without an answer was `closed` by an
 * answer that ended its connection, or else dropped: a dropped request, another status, a body the
 * job's `verifyBody` refuses, a connection error or a timeout throws: the block measured something else.
 */
function outcome({ job, connections, latency }, result) {
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  let cut = 0;
  let closed = 0;
  let dropped = 0;
  for (const { sent, answered, closing } of connections) {
    const unanswered = sent - answered;
    cut += Math.min(unanswered, 1);
    closed += Math.min(Math.max(unanswered - 1, 0), closing);
    dropped += Math.max(unanswered - 1 - closing, 0);
  }
  const answered = result.requests.total;
  const failed = result.errors > 0 || result.timeouts > 0 || result.mismatches > 0 || dropped > 0;
  if (Object.keys(statuses).some((code) => Number(code) !== job.status) || failed) {
    throw new Error(
      `${job.name}: expected only ${job.status} answers, got ${JSON.stringify(statuses)}, ${result.errors} errors, ${result.timeouts} timeouts, ` +
        `${result.mismatches} bodies its verifyBody refused, ${dropped} requests unanswered before the end`,
    );
  }
  return { answered, seconds: result.duration, rps: answered / result.duration, p99: latency.percentile(99), latency, cut, closed };
}

/**
 * How much longer the flood runs than the valid caller in a flooded block (both start together): the
 * hold's default second, so that 429s held that long arrive before the flood stops and their status
 * is checked, instead of every one being cut at the block's end.
 */
export const FLOOD_TAIL_SECONDS = 1;

/**
 * Runs `jobs` (`{ name, status, options }`, autocannon's options) at once for `seconds` on the server
 * process `pid`, and resolves to each job's outcome (answers, req/s over its own duration, p99 µs, the
 * latency histogram, requests cut at the end) and the server's CPU µs over the block (from /proc).
 */
async function block(jobs, seconds, pid) {
  const before = cpuMicros(pid);
  const started = jobs.map((job) => start(job, seconds));
  const results = await Promise.all(started.map(({ instance }) => instance));
  const cpu = cpuMicros(pid) - before;
  return { outcomes: started.map((run, i) => outcome(run, results[i])), cpu };
}

/**
 * One histogram holding every latency of `outcomes`: the p99 of all of a server's rounds together.
 */
function merged(outcomes) {
  const all = createHistogram();
  for (const { latency } of outcomes) all.add(latency);
  return all;
}

/**
 * One server's blocks of a round: the valid caller (`jobs.valid`) alone, and with the flood
 * (`jobs.flood`, {@link FLOOD_TAIL_SECONDS} longer), in the order `floodFirst` says. Resolves to
 * `{ alone, flooded: { valid, flood, cpu } }`, each with its server CPU µs per answer.
 *
 * @example
 * const round = await pair(server, { valid, flood }, 1, false);
 * round.flooded.valid.rps / round.alone.rps; // the valid caller's share kept under the flood
 */
export async function pair(server, jobs, seconds, floodFirst) {
  const alone = async () => {
    const { outcomes, cpu } = await block([jobs.valid], seconds, server.pid);
    return { ...outcomes[0], cpu: cpu / outcomes[0].answered };
  };
  const flooded = async () => {
    const longer = { ...jobs.flood, options: { ...jobs.flood.options, duration: seconds + FLOOD_TAIL_SECONDS } };
    const { outcomes, cpu } = await block([jobs.valid, longer], seconds, server.pid);
    const [valid, flood] = outcomes;
    return { valid, flood, cpu: cpu / (valid.answered + flood.answered) };
  };
  if (floodFirst) {
    const first = await flooded();
    return { flooded: first, alone: await alone() };
  }
  const first = await alone();
  return { alone: first, flooded: await flooded() };
}

/**
 * A server's rounds as the section shows them: the valid caller's req/s and p99 ratios per round
 * with their 95 % intervals, the p99s of all rounds' latencies together, the flood's answers, the
 * requests cut at the blocks' ends, CPU per answer.
 *
 * @example
 * summary(rounds).throughput; // { median, low, high } of flooded ÷ alone req/s
 */
export function summary(rounds) {
  const sum = (values) => values.reduce((a, b) => a + b, 0);
  const valid = rounds.map((r) => r.flooded.valid);
  const flood = rounds.map((r) => r.flooded.flood);
  const alone = rounds.map((r) => r.alone);
  const middle = (values) => medianInterval(values).median;
  return {
    aloneRps: middle(alone.map((r) => r.rps)),
    floodedRps: middle(valid.map((r) => r.rps)),
    throughput: medianInterval(rounds.map((r) => r.flooded.valid.rps / r.alone.rps)),
    p99: medianInterval(rounds.map((r) => r.flooded.valid.p99 / r.alone.p99)),
    aloneP99: merged(alone).percentile(99),
    floodedP99: merged(valid).percentile(99),
    floodRps: sum(flood.map((r) => r.answered)) / sum(flood.map((r) => r.seconds)),
    floodAnswers: sum(flood.map((r) => r.answered)),
    // What the flood got the server to read: its answers and the requests held when a block ended.
    floodTaken: sum(flood.map((r) => r.answered + r.cut)) / sum(flood.map((r) => r.seconds)),
    cut: { valid: sum([...alone, ...valid].map((r) => r.cut)), flood: sum(flood.map((r) => r.cut)), closed: sum(flood.map((r) => r.closed)) },
    cpu: { alone: middle(alone.map((r) => r.cpu)), flooded: middle(rounds.map((r) => r.flooded.cpu)) },
    rounds,
  };
}
