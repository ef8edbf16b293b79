// Blocks of load sent at once (a valid caller and a flood on one server), every request accounted for: answered, cut by the client at the block's end, or left unanswered by the server.
import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { cpuMicros } from './load.mjs';

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
 * Runs `jobs` (`{ name, status, options }`, autocannon's options) at once for `seconds` on the server
 * process `pid`, and resolves to each job's outcome (answers, req/s over its own duration, p99 µs, the
 * latency histogram, requests cut at the end) and the server's CPU µs over the block (from /proc).
 *
 * @example
 * const { outcomes, cpu } = await block([valid, flood], 1, server.pid);
 * outcomes[0].rps; // the valid caller's req/s while the flood ran
 */
export async function block(jobs, seconds, pid) {
  const before = cpuMicros(pid);
  const started = jobs.map((job) => start(job, seconds));
  const results = await Promise.all(started.map(({ instance }) => instance));
  const cpu = cpuMicros(pid) - before;
  return { outcomes: started.map((run, i) => outcome(run, results[i])), cpu };
}

/**
 * One histogram holding every latency of `outcomes`: the p99 of all of a server's rounds together.
 *
 * @example
 * merged(rounds.map((round) => round.alone)).percentile(99);
 */
export function merged(outcomes) {
  const all = createHistogram();
  for (const { latency } of outcomes) all.add(latency);
  return all;
}
