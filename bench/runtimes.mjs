// The Deno and Bun rows of #28: our serve() against Hono doing the same work on the same runtime, taking turns.
// `node bench/runtimes.mjs [--quick] [--rounds=N --seconds=S] [--all]` (after `npm run build`) runs them alone and prints the section;
// --all measures every scenario, not only GET and POST.
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { isInstalled, runtimeBinary } from '../scripts/runtime.mjs';
import { cpuRatioPerRound, f, KEY, ratioPerRound, roundSettings, startServer, summarize, takeTurns } from './load.mjs';
import { assertSameWork, SCENARIOS } from './peers/same-work.mjs';
import { shown, targetRow } from './stats.mjs';

/** The runtimes, how each runs a script, and how to read its version. */
const RUNTIMES = {
  deno: { name: 'Deno', run: (binary, script) => [binary, 'run', '--allow-net', '--allow-read', '--allow-env', script] },
  bun: { name: 'Bun', run: (binary, script) => [binary, script] },
};
/** The servers on each runtime, ours first: the ratios are ours ÷ Hono. */
const SERVERS = { petstore: '`serve()` (petstore-service/{runtime})', hono: 'Hono 4 on {serve}' };
const SERVE = { deno: '`Deno.serve`', bun: '`Bun.serve`' };
/** Ours ÷ Hono on the same runtime: the goal for every scenario measured. */
export const RUNTIME_GOAL = 1;
/**
 * Measured by default: GET, as #28 asks at least. Each scenario costs 2 runtimes × 2 servers ×
 * (1 s of warm-up + rounds × seconds): 52 s at 24 × 0.5 s, so all five would take 4.3 minutes.
 */
export const RUNTIME_SCENARIOS = ['list'];

/**
 * On each of Deno and Bun that is installed (test/runtimes/, scripts/runtime.mjs), starts our
 * serve() and the Hono peer (bench/runtimes/server.mjs), checks they answer every scenario and probe
 * alike (bench/peers/same-work.mjs), then measures `scenarios` on both in `rounds` rounds of `seconds`, taking turns
 * (each server pinned as bench/load.mjs pins them: the runtime's threads inherit the core).
 * Resolves to `{ [runtime]: { version, peers: { [scenario]: { petstore, hono } } } }`, with
 * `oursOver` (ours ÷ Hono per round: median and interval) and `atEqualCpu` (Hono's CPU per answer ÷ ours) on ours; a runtime not installed or failing to start is
 * `{ missing: why }` instead, and the others are still measured.
 */
export async function runtimeBenchmarks({ rounds, seconds, warmup, scenarios = RUNTIME_SCENARIOS, progress = () => {} }) {
  const started = Date.now();
  const result = {};
  for (const [runtime, { name, run }] of Object.entries(RUNTIMES)) {
    if (!isInstalled(runtime)) {
      result[runtime] = {
        missing: `${name} is not installed in test/runtimes/${runtime}: \`node scripts/runtime.mjs ${runtime} --version\` (or npm test) fetches it`,
      };
      continue;
    }
    const servers = {};
    try {
      const binary = await runtimeBinary(runtime);
      const version = `${name} ${/\d+\.\d+\.\d+/.exec(execFileSync(binary, ['--version'], { encoding: 'utf8' }))?.[0] ?? '(version unknown)'}`;
      for (const kind of Object.keys(SERVERS)) servers[kind] = await startServer(kind, [], [...run(binary, 'bench/runtimes/server.mjs'), kind, KEY]);
      const sameWork = await assertSameWork(Object.fromEntries(Object.entries(servers).map(([kind, server]) => [kind, server.url])), KEY);
      const groups = scenarios.map((scenario) =>
        Object.keys(SERVERS).map((kind) => ({
          scenario,
          kind,
          name: `${name} ${SCENARIOS[scenario].short} — ${kind}`,
          status: SCENARIOS[scenario].status,
          options: SCENARIOS[scenario].load(servers[kind].url, KEY),
          pid: servers[kind].pid,
        })),
      );
      progress(`${name}: ${scenarios.map((s) => SCENARIOS[s].short).join(', ')}, ours and Hono`);
      const runs = await takeTurns(groups, { rounds, seconds, warmup });
      const peers = {};
      for (const job of groups.flat()) (peers[job.scenario] ??= {})[job.kind] = summarize(runs.get(job));
      for (const byServer of Object.values(peers)) {
        byServer.petstore.oursOver = ratioPerRound(byServer.petstore, byServer.hono);
        byServer.petstore.atEqualCpu = cpuRatioPerRound(byServer.petstore, byServer.hono);
      }
      result[runtime] = { version, peers, sameWork };
    } catch (error) {
      result[runtime] = { missing: `${name} could not be measured: ${error.message.split('\n')[0]}` };
    } finally {
      for (const server of Object.values(servers)) server.stop();
    }
  }
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

/** The target rows, as bench/index.mjs lists them: `[name, goal, measured, met, ratios]`; a runtime not measured is a missed row saying why. */
export function runtimeTargets(result) {
  return Object.entries(RUNTIMES).map(([runtime, { name }]) => {
    const measured = result[runtime];
    const label = `${name}: req/s \`serve()\` ÷ Hono 4 on ${SERVE[runtime]}, same work`;
    if (measured.missing) return [label, `≥ ${RUNTIME_GOAL}×`, measured.missing, false];
    const entries = Object.entries(measured.peers);
    return targetRow(
      `${label} (${entries.map(([s]) => SCENARIOS[s].short).join(' · ')})`,
      RUNTIME_GOAL,
      entries.map(([s, byServer]) => [SCENARIOS[s].short, byServer.petstore.oursOver]),
      { after: `; at equal CPU ${entries.map(([, byServer]) => shown(byServer.petstore.atEqualCpu)).join(' · ')}` },
    );
  });
}

/** The section for BENCHMARKS.md: each runtime's rows, or why it has none, as Markdown. */
export function runtimeSection(result, { rounds, seconds }) {
  const rows = [];
  const notes = [];
  for (const runtime of Object.keys(RUNTIMES)) {
    const measured = result[runtime];
    if (measured.missing) {
      notes.push(`- ${measured.missing}`);
      continue;
    }
    for (const [scenario, byServer] of Object.entries(measured.peers)) {
      for (const [kind, r] of Object.entries(byServer)) {
        const server = SERVERS[kind].replace('{runtime}', runtime).replace('{serve}', SERVE[runtime]);
        const ratio = kind === 'petstore' ? `**${shown(r.oursOver)}**` : '1×';
        rows.push(`| ${measured.version} | ${SCENARIOS[scenario].title} | ${server} | ${f(r.rps)} | ${ratio} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.cpu, 1)} |`);
      }
    }
  }
  const table = rows.length
    ? `| Runtime | Scenario | Server | req/s | ÷ Hono | p50 µs | p99 µs | CPU µs per answer |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}\n`
    : '';
  return `## Deno and Bun: \`serve()\` vs Hono on the same runtime

On each runtime, our \`serve()\` of petstore-service/deno or /bun (the built package, as the Node row,
given \`clientAddress\` from \`X-Real-IP\`) and the Hono peer of bench/peers/hono-app.mjs served in
Hono's idiom there (\`Deno.serve(app.fetch)\`, \`Bun.serve({ fetch: app.fetch })\`), each in its own
process over the same seeded memory stores (bench/runtimes/server.mjs). The two answer every
scenario and probe alike before anything is measured, as on Node. Load from Node's autocannon, 10
connections, ${rounds} rounds of a ${seconds} s block each, taking turns; **÷ Hono** is the median of the per-round
ratios, its 95 % bootstrap interval in brackets.
${notes.length ? `\n${notes.join('\n')}\n` : ''}
${table}
This part took ${f(result.seconds / 60, 1)} minutes.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const settings = roundSettings();
  const scenarios = process.argv.includes('--all') ? Object.keys(SCENARIOS) : RUNTIME_SCENARIOS;
  const result = await runtimeBenchmarks({ ...settings, scenarios, progress: (line) => console.error(line) });
  console.log(`${settings.rounds} rounds × ${settings.seconds} s, ${f(result.seconds)} s in all\n`);
  console.log('| Target | Goal | Measured | |\n| --- | --- | --- | --- |');
  for (const [name, goalText, value, ok] of runtimeTargets(result)) console.log(`| ${name} | ${goalText} | ${value} | ${ok ? '✅ met' : '❌ missed'} |`);
  console.log(`\n${runtimeSection(result, settings)}`);
}
