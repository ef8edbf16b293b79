// Issue 49's flood scenario: does a banned flood starve a paying caller? Ours and the peers in paired rounds, alone and flooded.
// `node bench/flood-fairness.mjs [--quick] [--rounds=N] [--seconds=S]` (after `npm run build`) prints its section and targets.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { accessLines, lineCount, seed, startCommand } from './command.mjs';
import { FLOOD_TAIL_SECONDS, pair, summary } from './flood-blocks.mjs';
import { f, KEY, pinBench, pinningNote, startServer } from './load.mjs';
import { assertSameWork, REAL_IP, SCENARIOS } from './peers/same-work.mjs';
import { targetRow } from './stats.mjs';

/** The servers, ours first (the command's `--quiet` is the one the others' answers are compared to); the targets are the command's. */
export const FLOOD_SERVERS = {
  quiet: 'the command, `--quiet`',
  logged: 'the command, access log to a file',
  unheld: 'the command, `--quiet --ban-hold-ms 0` (bans answered at once, as before #49)',
  petstore: '`serve()` (petstore-service/node)',
  'fastify-lean': 'Fastify 5, lean',
  hono: 'Hono 4 (@hono/node-server)',
};
/** The command as a new user runs it behind one proxy: callers told apart by X-Forwarded-For, so the flood is one address and the valid caller another. */
const COMMAND_FLAGS = {
  quiet: ['--trust-proxy', '1', '--quiet'],
  logged: ['--trust-proxy', '1'],
  unheld: ['--trust-proxy', '1', '--quiet', '--ban-hold-ms', '0'],
};
/** Whether the built command holds bans at all (#49's `--ban-hold-ms`): a build before it has no row without the hold. */
const holdsBans = () => execFileSync(process.execPath, ['dist/cli/index.js', '--help'], { encoding: 'utf8' }).includes('--ban-hold-ms');
/** Connections of the valid key's GET and of the banned flood, as the issue sets them. */
const VALID_CONNECTIONS = 2;
const FLOOD_CONNECTIONS = 8;
/** The valid caller's address (TEST-NET-2): never the flood's, which same-work.mjs bans. */
const VALID_ADDRESS = '198.51.100.20';
/** Rounds of 1 s a side for `npm run bench` and its `--quick`: about 5 and 2 minutes with six servers. */
export const FLOOD_SETTINGS = { full: { rounds: 16, seconds: 1 }, quick: { rounds: 6, seconds: 1 } };
/** The goals of #49: the valid caller keeps at least this share of its req/s, and its p99 grows at most this many times. */
export const FLOOD_GOALS = { throughput: 0.7, p99: 3 };

/** The valid caller (a key's 20-pet page) and the flood (keyless, from the banned address) for one server. */
function jobsFor(kind, { url, addressHeader = REAL_IP }) {
  const list = SCENARIOS.list.load(url, KEY);
  return {
    valid: {
      name: `valid caller — ${kind}`,
      status: 200,
      options: { ...list, connections: VALID_CONNECTIONS, headers: { ...list.headers, [addressHeader]: VALID_ADDRESS } },
    },
    flood: {
      name: `flood — ${kind}`,
      status: SCENARIOS.banned.status,
      // Each answer's body is read too: a 429 for another reason than the ban would be another scenario.
      options: {
        ...SCENARIOS.banned.load(url, KEY, addressHeader),
        connections: FLOOD_CONNECTIONS,
        verifyBody: (body) => body.includes('"code":"key_banned"'),
      },
    },
  };
}

/**
 * Seconds the same-work check needs within one clock minute. Its answers carry the minute window's
 * count, and its retry when the minute turns during it cannot agree (servers asked before the turn
 * carry fewer requests into the new minute than those asked after it); held 429s make the check
 * take a few seconds per server of ours.
 */
const CHECK_SECONDS = 20;

/** Waits for the next minute when fewer than {@link CHECK_SECONDS} of this one are left. */
async function minuteWithRoom() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < CHECK_SECONDS * 1000) await sleep(left + 100);
}

/** Starts the servers (the commands seeded over HTTP), each with its address header; the row without the hold only on a build that has it. */
async function startAll(directory) {
  const servers = {};
  const kinds = Object.keys(FLOOD_SERVERS).filter((kind) => kind !== 'unheld' || holdsBans());
  // serve() keeps its default hold here, whatever bench/http.mjs set for its own 429 rows (bench/http-server.mjs reads this).
  const hold = process.env.PETSTORE_BENCH_BAN_HOLD_MS;
  delete process.env.PETSTORE_BENCH_BAN_HOLD_MS;
  try {
    for (const kind of kinds) {
      if (kind in COMMAND_FLAGS) {
        servers[kind] = { ...(await startCommand(COMMAND_FLAGS[kind], join(directory, `${kind}.log`))), addressHeader: 'x-forwarded-for' };
        await seed(servers[kind].url);
      } else servers[kind] = await startServer(kind);
    }
  } finally {
    if (hold !== undefined) process.env.PETSTORE_BENCH_BAN_HOLD_MS = hold;
  }
  return servers;
}

/**
 * Starts the command (`--quiet` and with its access log), `serve()`, lean Fastify and Hono, checks
 * that all answer alike and bans the flooding address on each (bench/peers/same-work.mjs), then runs
 * `rounds` rounds: on each server in turn (the order rotating), the valid caller alone for `seconds`
 * and the valid caller with the flood for `seconds` (which goes first alternating). Resolves to each
 * server's summary and the settings.
 *
 * @example
 * const result = await floodFairnessBenchmark({ rounds: 16, seconds: 1 });
 * result.servers.quiet.throughput; // { median, low, high }: flooded ÷ alone, per round
 */
export async function floodFairnessBenchmark({ rounds, seconds, progress = () => {} }) {
  const started = Date.now();
  const directory = mkdtempSync(join(tmpdir(), 'petstore-bench-flood-'));
  const logFile = join(directory, 'logged.log');
  let servers = {};
  try {
    servers = await startAll(directory);
    await minuteWithRoom();
    const checked = Date.now();
    await assertSameWork(servers, KEY);
    progress(`same work checked in ${((Date.now() - checked) / 1000).toFixed(1)} s`);
    const kinds = Object.keys(servers);
    const jobs = Object.fromEntries(kinds.map((kind) => [kind, jobsFor(kind, servers[kind])]));
    const linesBefore = lineCount(logFile);
    // A warm-up pair per server, so that JIT compilation is not measured.
    for (const kind of kinds) await pair(servers[kind], jobs[kind], 1, false);
    const measured = Object.fromEntries(kinds.map((kind) => [kind, []]));
    for (let round = 0; round < rounds; round++) {
      progress(`flood round ${round + 1} of ${rounds}`);
      for (let i = 0; i < kinds.length; i++) {
        const kind = kinds[(i + round) % kinds.length];
        measured[kind].push(await pair(servers[kind], jobs[kind], seconds, round % 2 === 1));
      }
    }
    const result = Object.fromEntries(kinds.map((kind) => [kind, summary(measured[kind])]));
    // Every answer the logged command gave in the rounds (valid and flood) must be a line (the warm-up's are more); --quiet writes none.
    const answered = measured.logged.reduce((n, r) => n + r.alone.answered + r.flooded.valid.answered + r.flooded.flood.answered, 0);
    const lines = lineCount(logFile) - linesBefore;
    if (lines < answered) throw new Error(`the access log holds ${lines} lines for ${answered} answers measured`);
    for (const kind of kinds.filter((k) => COMMAND_FLAGS[k]?.includes('--quiet'))) {
      const quietLines = accessLines(join(directory, `${kind}.log`));
      if (quietLines !== 0) throw new Error(`--quiet wrote ${quietLines} access-log lines`);
    }
    return { servers: result, rounds, seconds, log: { lines, answered }, minutes: (Date.now() - started) / 60_000 };
  } finally {
    for (const server of Object.values(servers)) server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Whether a server held the flood's answers: fewer than 4 a second per connection, where answering at once gives thousands. */
const held = (r) => r.floodRps < 4 * FLOOD_CONNECTIONS;

/** A rate with a decimal when it is small (a held flood's), none when it is thousands. */
const rate = (n) => f(n, n < 100 ? 1 : 0);

const interval = ({ median, low, high }) => `**${f(median, 2)}×** (${f(low, 2)}–${f(high, 2)})`;

/** What the row without the hold shows, when the build has one. */
const unheld = ({ servers }) =>
  servers.unheld
    ? ` The same build with \`--ban-hold-ms 0\` answers the flood at once (${rate(servers.unheld.floodRps)} answers a second), and its valid caller keeps ${interval(servers.unheld.throughput)}.`
    : '';

/**
 * The flood targets of #49 for the command (`--quiet` and with its log), as bench/index.mjs lists
 * targets: `[name, goal, measured, met, ratios]` (bench/stats.mjs `targetRow`), met only when the
 * whole 95 % interval is on the goal's side.
 *
 * @example
 * for (const [name, goal, measured, met] of floodFairnessTargets(result)) console.log(name, goal, measured, met);
 */
export function floodFairnessTargets(result) {
  return ['quiet', 'logged'].flatMap((kind) => {
    const r = result.servers[kind];
    const flood = `${FLOOD_CONNECTIONS} banned connections beside ${VALID_CONNECTIONS} of a valid key's GET, ${FLOOD_SERVERS[kind]}`;
    return [
      targetRow(`Flood: the valid caller's req/s flooded ÷ alone, ${flood}`, FLOOD_GOALS.throughput, r.throughput),
      targetRow(`Flood: the valid caller's p99 flooded ÷ alone, ${flood}`, FLOOD_GOALS.p99, r.p99, { atMost: true }),
    ];
  });
}

/** The section's table rows, ours in bold. */
function rows(result) {
  return Object.entries(result.servers).map(([kind, r]) => {
    const name = kind in COMMAND_FLAGS || kind === 'petstore' ? `**${FLOOD_SERVERS[kind]}**` : FLOOD_SERVERS[kind];
    return (
      `| ${name} | ${f(r.aloneRps)} → ${f(r.floodedRps)} | ${interval(r.throughput)} | ${f(r.aloneP99)} → ${f(r.floodedP99)} | ${interval(r.p99)} | ` +
      `${rate(r.floodRps)} (${f(r.floodAnswers)}, all 429) | ${rate(r.floodTaken)} | ${f(r.cut.valid)} · ${f(r.cut.flood)}${r.cut.closed ? ` (and ${f(r.cut.closed)} after an answer that closed its connection)` : ''} | ${f(r.cpu.alone, 1)} → ${f(r.cpu.flooded, 1)} |`
    );
  });
}

/**
 * The section for BENCHMARKS.md: what runs, the table (ours and the peers), what the hold is, and why
 * no per-request saving reaches the goal on a fair server, as Markdown.
 *
 * @example
 * console.log(floodFairnessSection(await floodFairnessBenchmark({ rounds: 4, seconds: 1 })));
 */
export function floodFairnessSection(result) {
  const quiet = result.servers.quiet;
  return `## A flood beside a paying caller (#49)

On each server, **the valid caller** is ${VALID_CONNECTIONS} connections of a valid key's \`GET /v1/pets\` (the 20-pet page)
from one address; **the flood** is ${FLOOD_CONNECTIONS} connections without a key from another address,
banned before anything is measured (60 admitted, 11 refused, then \`key_banned\`, as the HTTP
section's 429 scenario), so every answer it gets is a 429 \`key_banned\` with \`Retry-After\`. The
servers: the command as a new user runs it, \`node dist/cli/index.js --port 0 --key … --trust-proxy 1
--quiet\`, and the same with its access log (to a file); \`serve()\` set up as the command is; lean
Fastify and Hono, shown beside ours, not targets; on a build with the hold, the command \`--quiet\` with
\`--ban-hold-ms 0\` too, the same run without it. All are checked to answer alike first (the HTTP
section's same-work check). ${result.rounds} paired rounds: in each, every server in turn (the order
rotating) runs the valid caller **alone** for ${result.seconds} s and **flooded** (the valid caller and the flood,
two autocannon instances started together, the flood going on ${FLOOD_TAIL_SECONDS} s after the valid caller stops, so that
429s held a second arrive and are checked) for ${result.seconds} s, which of the two goes first alternating.
**Flooded ÷ alone** is the median of the per-round ratios of the valid caller's req/s, with its 95 %
bootstrap interval; **p99** is the valid caller's over all rounds' latencies together (alone →
flooded), and its ratio the median of the per-round ratios of p99, with its interval. A target is
met only when the whole interval is on its side. CPU is the server process's (user + system, from
/proc) per answer over the whole block, the flood's answers included. Where it ran: ${pinningNote()}.

| Server | valid req/s, alone → flooded | flooded ÷ alone (95 %) | valid p99 µs, alone → flooded | p99 flooded ÷ alone (95 %) | flood answers/s (answers) | flood requests/s, answered or cut | requests cut at a block's end (valid · flood) | CPU µs per answer, alone → flooded |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows(result).join('\n')}

**Every request is accounted for.** Each flood answer must be a 429 whose body's code is \`key_banned\`
(any other status or body, a connection error or a timeout stops the bench), and every request autocannon wrote must have been answered,
except the one each connection may have in flight when its block ends: autocannon then destroys its
connections without counting anything, so such a request (an answer the server was still holding,
or had not written yet) is counted as **cut**, the client's doing, not the server's; a request
unanswered before the end would stop the bench. autocannon's timeout is its default, 10 s. The
access log held ${f(result.log.lines)} lines for the ${f(result.log.answered)} answers the logged command gave here.

**The hold.** A banned caller's 429 can wait: the server holds it (\`banHoldMs\`, 1 s by default, at
most \`maxHeldBans\` held at once; past that bound it answers at once) and then sends it, status,
\`Retry-After\` and body as ever, so each of the flood's connections costs the server a timer rather
than a request: ${FLOOD_CONNECTIONS} connections then get about ${FLOOD_CONNECTIONS} answers a second. The **flood answers/s**
column shows whether the build measured held them (the command: ${rate(quiet.floodRps)} a second, ${held(quiet) ? 'held' : 'not held'}). Held, each
connection's first 429 arrives after the hold and its next is still held when the flood stops,
${result.seconds + FLOOD_TAIL_SECONDS} s in, and is cut: **flood requests/s, answered or cut** (what the flood got the server to read)
is then the flood's rate, about one a second per connection. A caller within its limits never waits.${unheld(result)}

**Why no per-request saving reaches ${FLOOD_GOALS.throughput}× on a fair server.** A busy node:http server answers its
connections in turn, so the valid caller's ${VALID_CONNECTIONS} connections get ${VALID_CONNECTIONS} of every ${VALID_CONNECTIONS + FLOOD_CONNECTIONS} turns, a fifth.
If a 429 costs \`c\` times a GET, the valid caller keeps 1 ÷ (1 + ${FLOOD_CONNECTIONS / VALID_CONNECTIONS}c) of its throughput: ${FLOOD_GOALS.throughput}×
needs \`c\` ≤ ${f((1 / FLOOD_GOALS.throughput - 1) / (FLOOD_CONNECTIONS / VALID_CONNECTIONS), 3)}, a 429 at a ninth of a GET's cost, while node:http's own parsing and writing, which no
server on it avoids, are most of a GET's cost (the HTTP section's floor answers its fixed 429 at
about the rate of its fixed GET). The flood's load generator shares the machine's two cores as well.
Only answering the flood less often helps: that is the hold. This part took ${f(result.minutes, 1)} minutes.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  pinBench();
  const quick = process.argv.includes('--quick');
  const argument = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
  const settings = { rounds: argument('rounds', FLOOD_SETTINGS[quick ? 'quick' : 'full'].rounds), seconds: argument('seconds', 1) };
  const result = await floodFairnessBenchmark({ ...settings, progress: (line) => console.error(line) });
  console.log(`${settings.rounds} rounds × ${settings.seconds} s a side, Node ${process.version}\n`);
  console.log('| Target | Goal | Measured | |\n| --- | --- | --- | --- |');
  for (const [name, goal, measured, met] of floodFairnessTargets(result)) console.log(`| ${name} | ${goal} | ${measured} | ${met ? '✅ met' : '❌ missed'} |`);
  console.log(`\n${floodFairnessSection(result)}`);
}
