// The SQL limit store as callers pile up (#28): `node bench/sql-limits.mjs [--quick] [--passes=N]`
// bundles bench/sql-limits.ts with esbuild (Node 20 cannot run TypeScript), runs it in a child
// process (PGlite and PostgreSQL's memory stay out of the caller's) and prints its section.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The goal: a take with 10^5 callers present at most this many times slower than with 10^2. */
export const SQL_LIMITS_GOAL = 1.5;

/**
 * Runs the measurement and resolves to its data: per store (`pglite`, `postgres`), `few` (10^2
 * callers) and `many` (10^5), each with `rate` (takes/s, 16 at a time), `p50` and `p99` (µs, one at
 * a time), medians of the passes; `slowdown`, the median per pass of few's rate ÷ many's.
 *
 * @example
 * const result = await sqlLimitsBenchmark({ quick: true });
 */
export async function sqlLimitsBenchmark({ quick = false, passes } = {}) {
  // Under node_modules, so the bundle's bare imports resolve to the project's packages; git ignores it.
  const directory = resolve('node_modules/.cache/petstore-bench');
  mkdirSync(directory, { recursive: true });
  const outfile = resolve(directory, 'sql-limits.mjs');
  await build({ entryPoints: ['bench/sql-limits.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'error' });
  const args = [...(quick ? ['--quick'] : []), ...(passes ? [`--passes=${passes}`] : [])];
  const output = execFileSync(process.execPath, [outfile, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 2 ** 26 });
  return JSON.parse(output.trim().split('\n').at(-1));
}

const f = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const STORES = { pglite: 'PGlite (in memory)', postgres: 'PostgreSQL 15 (local, fsync off)' };

/**
 * The target rows for BENCHMARKS.md, as bench/index.mjs lists them: `[name, goal, measured, met]`.
 *
 * @example
 * for (const [name, goal, measured, ok] of sqlLimitsTargets(result)) console.log(name, goal, measured, ok);
 */
export const sqlLimitsTargets = (result) =>
  Object.entries(STORES).map(([store, name]) => [
    `Rate-limit \`take\` on ${name}: takes/s with 10^2 callers today ÷ with 10^5`,
    `≤ ${SQL_LIMITS_GOAL}×`,
    `${f(result[store].slowdown, 2)}×`,
    result[store].slowdown <= SQL_LIMITS_GOAL,
  ]);

/**
 * The section for BENCHMARKS.md, as Markdown.
 *
 * @example
 * console.log(sqlLimitsSection(await sqlLimitsBenchmark({})));
 */
export function sqlLimitsSection(result) {
  const rows = Object.entries(STORES).flatMap(([store, name]) =>
    ['few', 'many'].map((size, i) => {
      const r = result[store][size];
      const ratio = size === 'few' ? '1×' : `**${f(result[store].slowdown, 2)}×** (${result[store].slowdowns.map((x) => f(x, 2)).join(' · ')})`;
      return `| ${name} | ${f(result.sizes[i])} | ${f(r.rate)} | ${ratio} | ${f(r.p50)} | ${f(r.p99)} |`;
    }),
  );
  const verdicts = Object.entries(STORES)
    .map(([store, name]) => `${name} ${f(result[store].slowdown, 2)}× ${result[store].slowdown <= SQL_LIMITS_GOAL ? '✅' : '❌'}`)
    .join(', ');
  return `## Rate-limit \`take\` on the SQL stores as callers pile up

\`sqlLimitStore\` with ${f(result.sizes[0])} and with ${f(result.sizes[1])} distinct callers already counted today (each a subject row,
an ended minute counter and a live day counter, written in bulk, then ANALYZE), each take by a
caller picked at random among them, every take admitted. A database per size, the sizes taking turns
over ${result.passes} passes: takes/s with ${f(result.takes)} takes 16 at a time, p50 and p99 of ${f(result.latencies)} takes one at a time; medians
of the passes. **slower** is the median per pass of the 10^2 rate ÷ the 10^5 rate (each pass's in brackets).

| Store | Callers today | takes/s | slower | p50 µs | p99 µs |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Goal: at most ${SQL_LIMITS_GOAL}× slower with 10^5 callers: ${verdicts}. Version 1 of the schema looked for ended
callers by scanning every one seen today on every take (35–115 ms per take at 6,784 callers); since
migration 2 an index on when each caller's state ends finds them (test/sql/pglite-limit-cleanup.test.ts:
3 rows read per take at 100 callers and at 20,000).
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const passes = process.argv.find((a) => a.startsWith('--passes='))?.slice(9);
  const started = Date.now();
  const result = await sqlLimitsBenchmark({ quick: process.argv.includes('--quick'), passes: passes && Number(passes) });
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s in all, Node ${process.version}\n`);
  console.log(sqlLimitsSection(result));
}
