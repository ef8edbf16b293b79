// @ts-check
/** Child of the eviction flood test: real TCP requests from chosen source addresses, inside the test's network namespace. */
import { request } from 'node:http';
import { connect, isIPv6 } from 'node:net';

/**
 * @typedef {{ kind: 'flood', port: number, family: 4 | 6, count: number, concurrency: number }} FloodJob
 *   `count` keyless requests, each from its own source: distinct IPv4 addresses, or one address in each of distinct IPv6 /56s.
 * @typedef {{ kind: 'requests', port: number, from: string, key?: string, count: number }} RequestsJob
 *   `count` requests one after another from `from`, with `key` as the bearer key when given.
 * @typedef {{ status: number, code?: string, remaining: string | undefined }} Answer
 */

/** Where the server listens, seen from a source of either family: both addresses are local to the namespace. */
const serverAddress = (/** @type {4 | 6} */ family) => (family === 6 ? '2001:db8::1' : '127.0.0.1');
// Every source is outside 127.0.0.0/16 and 2001:db8:ff00::/40, where the test's own callers live.
const floodSource = (/** @type {4 | 6} */ family, /** @type {number} */ i) =>
  family === 6 ? `2001:db8:${(i >> 8).toString(16)}:${((i & 255) << 8).toString(16)}::7` : `127.${1 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
const FLOOD_REQUEST = Buffer.from('GET /v1/pets HTTP/1.1\r\nHost: flood.test\r\nConnection: close\r\n\r\n');
/** A socket deadline, so a stuck server fails the job instead of hanging it. */
const DEADLINE_MS = 10_000;

/**
 * One request per connection, `concurrency` connections at a time. Only the status line is
 * parsed: it is all the flood needs, and a lean client leaves the CPU to the server.
 * @param {FloodJob} job
 */
async function flood({ port, family, count, concurrency }) {
  /** @type {Record<string, number>} */
  const statuses = {};
  const tally = (/** @type {string} */ outcome) => (statuses[outcome] = (statuses[outcome] ?? 0) + 1);
  const one = (/** @type {number} */ i) =>
    new Promise((resolve) => {
      const socket = connect({ host: serverAddress(family), port, localAddress: floodSource(family, i) }, () => socket.end(FLOOD_REQUEST));
      /** @type {string | undefined} */
      let status;
      socket.setTimeout(DEADLINE_MS, () => socket.destroy(new Error('no answer within the deadline')));
      socket.on('data', (chunk) => (status ??= chunk.toString('latin1', 9, 12)));
      socket.on('error', (error) => (status = `error: ${error.message}`));
      socket.on('close', () => resolve(tally(status ?? 'closed without an answer')));
    });
  let next = 0;
  const worker = async () => {
    while (next < count) await one(next++);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { statuses, ms: Math.round(performance.now() - started) };
}

/** @param {RequestsJob} job */
async function requests({ port, from, key, count }) {
  const family = isIPv6(from) ? 6 : 4;
  /** @type {Answer[]} */
  const answers = [];
  for (let i = 0; i < count; i++) {
    /** @type {Record<string, string>} */
    const headers = { connection: 'close', host: 'flood.test' };
    if (key) headers.authorization = `Bearer ${key}`;
    answers.push(
      await new Promise((resolve, reject) => {
        const options = { host: serverAddress(family), port, path: '/v1/pets', localAddress: from, headers, agent: false, timeout: DEADLINE_MS };
        const sent = request(options, (response) => {
          let body = '';
          response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
          response.on('end', () => {
            const remaining = response.headers['x-ratelimit-remaining'];
            const code = response.statusCode === 200 ? undefined : JSON.parse(body).code;
            resolve({ status: response.statusCode ?? 0, code, remaining: Array.isArray(remaining) ? remaining[0] : remaining });
          });
        });
        sent.on('timeout', () => sent.destroy(new Error('no answer within the deadline')));
        sent.on('error', reject).end();
      }),
    );
  }
  return { answers };
}

/** @type {FloodJob | RequestsJob} */
const job = JSON.parse(process.argv[2] ?? '{}');
const result = job.kind === 'flood' ? await flood(job) : await requests(job);
process.stdout.write(JSON.stringify(result));
