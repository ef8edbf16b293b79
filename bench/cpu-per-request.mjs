// Server CPU per answer for each same-work scenario, servers taking turns: `node bench/cpu-per-request.mjs [kinds…] [--only=GET,POST] [--seconds=2] [--rounds=5] [--unchecked]`
// (after npm run build). A development aid beside npm run bench: CPU µs per answer (user + system,
// from /proc) is steadier than req/s on a shared machine, and the median of the per-round ratios
// to the first kind steadier still.
import autocannon from 'autocannon';
import { cpuMicros as cpu, KEY, median, startServer } from './http.mjs';
import { option } from './load.mjs';
import { assertSameWork, SCENARIOS } from './peers/same-work.mjs';

const kinds = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const seconds = Number(option('seconds', 2));
const rounds = Number(option('rounds', 5));
const only = option('only')?.split(',');

const servers = {};
process.on('exit', () => Object.values(servers).forEach((server) => server.stop()));
const flags = [...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), ...(process.env.NODE_FLAGS?.split(' ').filter(Boolean) ?? [])];
for (const kind of kinds.length ? kinds : ['petstore', 'fastify']) servers[kind] = await startServer(kind, flags);
const names = Object.keys(servers);
// The peers are checked against ours (which also bans the 429 scenario's address); the baselines do less, unchecked.
const peers = names.filter((k) => ['petstore', 'fastify', 'hono'].includes(k));
if (peers.includes('petstore') && !process.argv.includes('--unchecked')) await assertSameWork(Object.fromEntries(peers.map((k) => [k, servers[k]])), KEY);

for (const spec of Object.values(SCENARIOS)) {
  if (only && !only.includes(spec.short)) continue;
  const perAnswer = Object.fromEntries(names.map((kind) => [kind, []]));
  for (const kind of names) await autocannon({ connections: 10, duration: 1, ...spec.load(servers[kind].url, KEY, servers[kind].addressHeader) });
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const kind = names[(i + round) % names.length];
      const before = cpu(servers[kind].pid);
      const result = await autocannon({ connections: 10, duration: seconds, ...spec.load(servers[kind].url, KEY, servers[kind].addressHeader) });
      perAnswer[kind].push((cpu(servers[kind].pid) - before) / result.requests.total);
    }
  }
  const first = names[0];
  const row = names.map((kind) => {
    const ratio = median(perAnswer[kind].map((us, i) => us / perAnswer[first][i]));
    return `${kind} ${median(perAnswer[kind]).toFixed(1)} µs${kind === first ? '' : ` (${ratio.toFixed(2)}× ${first})`}`;
  });
  console.log(`${spec.short.padEnd(5)} ${row.join('  |  ')}`);
}
