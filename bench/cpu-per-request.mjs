// Server CPU per request for each same-work scenario: `node bench/cpu-per-request.mjs [kinds…]` (after npm run build).
// A development aid: CPU µs per answer is steadier than req/s on a shared machine.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { assertSameWork, SCENARIOS } from './peers/same-work.mjs';

const KEY = 'bench-enterprise-key';
const kinds = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const seconds = Number(process.argv.find((a) => a.startsWith('--seconds='))?.slice(10) ?? 3);
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const servers = {};
for (const kind of kinds.length ? kinds : ['petstore', 'fastify']) {
  const child = spawn(process.env.PIN ? 'taskset' : process.execPath, [...(process.env.PIN ? ['-c', process.env.PIN, process.execPath] : []),...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), 'bench/http-server.mjs', kind, KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  while (!/ready (\d+)/.test(out)) await once(child.stdout, 'data');
  servers[kind] = { child, url: `http://127.0.0.1:${/ready (\d+)/.exec(out)[1]}` };
}
const names = Object.keys(servers);
// The peers are checked against ours (and the 429 scenario's address banned); the baselines do less, unchecked.
const peers = names.filter((k) => ['petstore', 'fastify', 'hono'].includes(k));
process.on('exit', () => Object.values(servers).forEach(({ child }) => child.kill()));
if (peers.includes('petstore') && !process.argv.includes('--unchecked')) await assertSameWork(Object.fromEntries(peers.map((k) => [k, servers[k].url])), KEY);
/** User and system CPU of a process so far, in µs (clock ticks of 10 ms). */
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return [Number(f[11]) * 10_000, Number(f[12]) * 10_000]; };
for (const [scenario, spec] of Object.entries(SCENARIOS)) {
  if (only && !only.includes(spec.short)) continue;
  const row = [];
  for (const kind of names) {
    await autocannon({ connections: 10, duration: 1, ...spec.load(servers[kind].url, KEY) });
    const before = cpu(servers[kind].child.pid);
    const result = await autocannon({ connections: 10, duration: seconds, ...spec.load(servers[kind].url, KEY) });
    const [user, system] = cpu(servers[kind].child.pid).map((time, i) => (time - before[i]) / result.requests.total);
    row.push(`${kind} ${Math.round(result.requests.average)} req/s ${(user + system).toFixed(1)} µs (user ${user.toFixed(1)}, system ${system.toFixed(1)})`);
  }
  console.log(`${spec.short.padEnd(5)} ${row.join('  |  ')}`);
}
for (const { child } of Object.values(servers)) child.kill('SIGTERM');
