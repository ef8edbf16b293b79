// The sandbox selector's cost on the command (issue 47: "the command's GET with neither header costs within 2 % of today's CPU per
// answer"): `node bench/selector.mjs [--base=<commit>] [--rounds=48] [--seconds=0.5]` (after `npm run build`) builds <commit> (by default
// the last one before the selector) in a temporary worktree, then runs its command and this checkout's, with and without
// --admin-token, taking turns on GET /v1/pets with neither header; npm run bench imports selectorBenchmark and selectorSection.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startCommand } from './command.mjs';
import { cpuCostPerRound, f, FULL, KEY, option, seed, summarize, takeTurns } from './load.mjs';
import { shown, targetRow } from './stats.mjs';

/** The commit the selector's cost is measured against: main just before the selector came (issue 47), "today" when it was asked. */
export const SELECTOR_BASE = '5f7d86d';
/** The goal: at most this much more server CPU per GET answer than the base's command. */
export const SELECTOR_GOAL = 1.02;
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** `base` built in a temporary worktree (its node_modules this checkout's): its folder and a function that removes it. */
function buildAt(base) {
  const folder = join(mkdtempSync(join(tmpdir(), 'petstore-bench-base-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', folder, base], { stdio: 'ignore' });
  symlinkSync(resolve('node_modules'), join(folder, 'node_modules'));
  execFileSync(process.execPath, [resolve('node_modules/tsup/dist/cli-default.js'), '--silent'], { cwd: folder, stdio: 'ignore' });
  return { folder, remove: () => execFileSync('git', ['worktree', 'remove', '--force', folder], { stdio: 'ignore' }) };
}

/** Runs `startCommand` (bench/command.mjs) from `folder`, so it starts that checkout's dist/cli/index.js. */
async function commandIn(folder, args, log) {
  const here = process.cwd();
  process.chdir(folder);
  try {
    return await startCommand(['--quiet', ...args], log);
  } finally {
    process.chdir(here);
  }
}

/**
 * Server CPU µs per `GET /v1/pets` answer (100 pets, the first page of 20) of the base's command and
 * this one's, each plain and with the admin API (sandboxes, so the selector is looked for on every
 * request), `rounds` rounds of `seconds` taking turns; per pair, this checkout's CPU per answer ÷ the
 * base's, per round: median and 95 % interval.
 */
export async function selectorBenchmark({ rounds, seconds, warmup, base = SELECTOR_BASE, progress = () => {} }) {
  progress(`building ${base} in a worktree`);
  const built = buildAt(base);
  const scratch = mkdtempSync(join(tmpdir(), 'petstore-bench-selector-'));
  const servers = {};
  try {
    for (const [name, folder, args] of [
      ['base', built.folder, []],
      ['head', process.cwd(), []],
      ['base admin', built.folder, ['--admin-token', ADMIN_TOKEN]],
      ['head admin', process.cwd(), ['--admin-token', ADMIN_TOKEN]],
    ]) {
      servers[name] = await commandIn(folder, args, join(scratch, `${name.replace(' ', '-')}.log`));
      await seed(servers[name].url);
    }
    const job = (name) => ({
      name,
      status: 200,
      pid: servers[name].pid,
      options: { url: `${servers[name].url}/v1/pets`, headers: { authorization: `Bearer ${KEY}` } },
    });
    const groups = [
      [job('base'), job('head')],
      [job('base admin'), job('head admin')],
    ];
    const runs = await takeTurns(groups, { rounds, seconds, warmup, onRound: (round) => progress(`selector round ${round + 1}/${rounds}`) });
    const figures = Object.fromEntries(groups.flat().map((j) => [j.name, summarize(runs.get(j))]));
    const pair = (a, b) => cpuCostPerRound(figures[b], figures[a]);
    return { base, figures, plain: pair('base', 'head'), admin: pair('base admin', 'head admin'), rounds, seconds };
  } finally {
    for (const server of Object.values(servers)) server.stop();
    rmSync(scratch, { recursive: true, force: true });
    built.remove();
  }
}

/** The targets row, as bench/index.mjs's table has them: name, goal, value, met (each interval's upper end at or under the goal), ratios. */
export function selectorTargets({ plain, admin }) {
  return [
    targetRow(
      "The command's GET with neither selector header: CPU per answer ÷ the command before the selector (issue 47; plain · with the admin API)",
      SELECTOR_GOAL,
      [
        ['plain', plain],
        ['with the admin API', admin],
      ],
      { atMost: true, digits: 3 },
    ),
  ];
}

/** The section of BENCHMARKS.md. */
export function selectorSection({ base, figures, plain, admin, rounds, seconds }) {
  const row = (name, label, ratio) => `| ${label} | ${f(figures[name].cpu, 1)} µs | ${f(figures[name].rps)} | ${ratio ? shown(ratio, 3) : '1 (the base)'} |`;
  return [
    '## The sandbox selector',
    '',
    `GET /v1/pets with neither \`Petstore-Sandbox\` nor \`baggage\`, the command with \`--quiet\`: this checkout's against ${base} (the`,
    `last commit before the selector), plain and with \`--admin-token\` (then the selector is looked for on every request),`,
    `${rounds} rounds of a ${seconds} s block each, taking turns. CPU µs per answer of the server process; the ratio is the median of the`,
    'per-round ratios to the base, with its 95 % bootstrap interval (`node bench/selector.mjs`).',
    '',
    '| Command | CPU per answer | req/s | CPU ÷ the base |',
    '| --- | ---: | ---: | ---: |',
    row('base', `${base}`),
    row('head', 'this checkout', plain),
    row('base admin', `${base}, --admin-token`),
    row('head admin', 'this checkout, --admin-token', admin),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await selectorBenchmark({
    // Many short rounds: on a shared machine one round's ratio strays by 30 %, the median of 48 by far less.
    rounds: Number(option('rounds', FULL.rounds * 2)),
    seconds: Number(option('seconds', FULL.seconds)),
    warmup: Number(option('warmup', FULL.warmup)),
    base: option('base', SELECTOR_BASE),
    progress: (message) => console.error(message),
  });
  console.log(selectorSection(result));
  for (const [name, goal, value, ok] of selectorTargets(result)) console.log(`${name}: ${value} (goal ${goal}) ${ok ? 'met' : 'missed'}`);
}
