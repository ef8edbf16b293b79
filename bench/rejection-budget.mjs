// How much work a rejection may do and still reach #35's goal (its rate ≥ 1.3× the command's `--quiet` GET; #49 retired it for CPU per answer against the floor): `node bench/rejection-budget.mjs [--work=0,3,6,9] [--rounds=24] [--seconds=0.5]` (after npm run build).
// The node:http floor answers the GET and each rejection scenario with our fixed answer after a busy
// wait of each --work µs; the command `--quiet` answers them for real; all take turns in each pass.
// The floor's rows say which work per answer still reaches the goal on this machine, and what a
// rejection is to a GET where neither does any work.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seed, startCommand } from './command.mjs';
import { REJECTIONS } from './http.mjs';
import { FULL, KEY, median, option, ratioPerRound, startServer, takeTurns } from './load.mjs';
import { shown } from './stats.mjs';
import { assertSameWork, SCENARIOS } from './peers/same-work.mjs';

const works = option('work', '0,3,6,9').split(',').map(Number);
const rounds = Number(option('rounds', FULL.rounds));
const seconds = Number(option('seconds', FULL.seconds));
/** #35's goal for a rejection's rate over the GET's, retired by #49. */
const RETIRED_GOAL = 1.3;

const directory = mkdtempSync(join(tmpdir(), 'petstore-bench-budget-'));
const servers = {};
try {
  servers.quiet = {
    ...(await startCommand(['--trust-proxy', '1', '--quiet', '--ban-hold-ms', '0'], join(directory, 'quiet.log'))),
    addressHeader: 'x-forwarded-for',
  };
  await seed(servers.quiet.url);
  // The same-work check also bans the 429 scenario's address.
  await assertSameWork({ petstore: servers.quiet }, KEY);
  for (const work of works) {
    process.env.FLOOR_WORK_US = String(work);
    servers[`floor+${work}`] = await startServer('floor');
  }
  const job = (kind, scenario) => {
    const spec = SCENARIOS[scenario];
    const { url, pid, addressHeader } = servers[kind];
    return { kind, scenario, name: `${spec.short} — ${kind}`, status: spec.status, options: spec.load(url, KEY, addressHeader), pid };
  };
  const scenarios = ['list', ...REJECTIONS];
  const jobs = ['quiet', ...works.map((w) => `floor+${w}`)].flatMap((kind) => scenarios.map((s) => job(kind, s)));
  const runs = await takeTurns([jobs], { rounds, seconds, onRound: (round) => console.error(`round ${round + 1} of ${rounds}`) });
  const get = { runs: runs.get(jobs[0]) };
  console.log(
    `Rate ÷ the command \`--quiet\` GET's in the same round (median of ${rounds} rounds of ${seconds} s, 95 % interval); #35's retired goal ${RETIRED_GOAL}×.\n`,
  );
  // The GET column: a floor's own GET, so each row also says what its rejections are to its GET.
  console.log(`| Server | ${scenarios.map((s) => SCENARIOS[s].short).join(' | ')} | CPU µs an answer |`);
  console.log(`| --- | ${scenarios.map(() => '---').join(' | ')} | --- |`);
  for (const kind of ['quiet', ...works.map((w) => `floor+${w}`)]) {
    const rows = jobs.filter((j) => j.kind === kind);
    const label = kind === 'quiet' ? 'the command `--quiet`' : `floor, ${kind.slice(6)} µs of work an answer`;
    const ratios = rows.map((j) => shown(ratioPerRound({ runs: runs.get(j) }, get)));
    const cpu = rows.map((j) => median(runs.get(j).map((r) => r.cpu)).toFixed(1)).join(' · ');
    console.log(`| ${label} | ${ratios.join(' | ')} | ${cpu} |`);
  }
} finally {
  for (const server of Object.values(servers)) server.stop();
  rmSync(directory, { recursive: true, force: true });
}
