// Profiles a Worker of bench/workers/server.mjs inside workerd over the V8 inspector: `node --experimental-websocket bench/profile-workerd.mjs <petstore|hono> [create|list] [--seconds=4]` (after `npm run build`); `--paired --rounds=N` compares CPU per answer instead.
import { writeFileSync } from 'node:fs';
import { cpuRatioPerRound, KEY, load, option, ratioPerRound, startServer, summarize, takeTurns } from './load.mjs';
import { SCENARIOS } from './peers/same-work.mjs';
import { shown } from './stats.mjs';

const [kind = 'petstore', scenario = 'create'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const seconds = Number(option('seconds', 4));
/** µs between samples asked for: workerd took one every 4–6 ms at 1000 (V8's default) under load; 100 added ~15 % to the Worker's CPU per answer. */
const interval = Number(option('interval', 1000));
/** The inspector's target: `core:user:` is the Worker; `core:entry` is Miniflare's entry Worker, which forwards every request to it. */
const target = option('target', 'core:user:');
const command = (name) => [process.execPath, 'bench/workers/server.mjs', name, KEY];
const job = (name, server, scene) => ({
  name: `workerd ${scene} — ${name}`,
  status: SCENARIOS[scene].status,
  options: SCENARIOS[scene].load(server.url, KEY),
  pid: server.pid,
});

/** A Chrome DevTools Protocol session on `url`: `send(method, params)` resolves to the result. */
async function devtools(url) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error(`cannot open ${url}`));
  });
  const waiting = new Map();
  let next = 0;
  socket.onmessage = ({ data }) => {
    const message = JSON.parse(data);
    const done = waiting.get(message.id);
    if (!done) return;
    waiting.delete(message.id);
    if (message.error) done.reject(new Error(`${message.error.message}`));
    else done.resolve(message.result);
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}

/** Sampled µs with JavaScript (or a native API it called) on the stack: not (program), which holds workerd's own work and its idle time, (idle) nor GC. */
function javaScriptMicros(profile) {
  const outside = new Set(
    profile.nodes.filter((node) => /^\((program|idle|garbage collector|root)\)$/.test(node.callFrame.functionName)).map((node) => node.id),
  );
  return profile.samples.reduce((sum, id, i) => sum + (outside.has(id) ? 0 : profile.timeDeltas[i]), 0);
}

/** Self time of the `count` functions with the most in `profile`: share of samples and sampled µs per answer (wall clock: a preempted Worker's samples land on what it ran). */
function topFunctions(profile, answered, count = 30) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const name = `${functionName || '(anonymous)'} ${url.split('/').slice(-1)[0]}:${lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + profile.timeDeltas[i]);
  });
  const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / answered).toFixed(2).padStart(6)} sampled µs/answer  ${name}`);
}

async function profileOne() {
  if (typeof WebSocket !== 'function') throw new Error('no global WebSocket: run with node --experimental-websocket (Node 20)');
  const port = 9400 + Math.floor(Math.random() * 500);
  const server = await startServer(kind, [], command(kind), { WORKERD_INSPECTOR_PORT: String(port) });
  try {
    const work = job(kind, server, scenario);
    // Warm-up as the bench's (bench/load.mjs FULL): the JIT settles before the profile.
    for (let i = 0; i < 4; i++) await load(work, 0.5);
    const session = await devtools(`ws://127.0.0.1:${port}/${target}`);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval });
    await session.send('Profiler.start');
    const run = await load(work, seconds);
    const { profile } = await session.send('Profiler.stop');
    session.close();
    const file = `/tmp/workerd-${kind}-${scenario}${target === 'core:user:' ? '' : `-${target.replace(/\W/g, '')}`}.cpuprofile`;
    writeFileSync(file, JSON.stringify(profile));
    const sampled = profile.timeDeltas.reduce((a, b) => a + b, 0);
    console.log(
      `${work.name}: ${run.answered} answers, ${run.rps.toFixed(0)} req/s under the profiler, ${run.cpu.toFixed(1)} µs CPU per answer (process tree)`,
    );
    console.log(`${file}: ${(sampled / 1000).toFixed(0)} ms sampled (wall clock), ${(sampled / run.answered).toFixed(1)} µs per answer`);
    console.log(
      `sampled in the Worker's JavaScript (all but (program), (idle) and GC): ${(javaScriptMicros(profile) / run.answered).toFixed(1)} µs per answer`,
    );
    for (const line of topFunctions(profile, run.answered)) console.log(line);
  } finally {
    server.stop();
  }
}

/** Ours and Hono without the inspector, taking turns as the bench does: ÷ Hono req/s and at equal CPU, per scenario. */
async function paired() {
  const rounds = Number(option('rounds', 12));
  const blockSeconds = Number(option('block', 0.5));
  const servers = {};
  try {
    for (const name of ['petstore', 'hono']) servers[name] = await startServer(name, [], command(name));
    const groups = ['create', 'list'].map((scene) => ['petstore', 'hono'].map((name) => ({ ...job(name, servers[name], scene), scene, kind: name })));
    const runs = await takeTurns(groups, { rounds, seconds: blockSeconds, warmup: 2 });
    for (const group of groups) {
      const [ours, hono] = group.map((j) => summarize(runs.get(j)));
      console.log(
        `${SCENARIOS[group[0].scene].short}: ours ${ours.cpu.toFixed(1)} µs CPU per answer, Hono ${hono.cpu.toFixed(1)}; ÷ Hono req/s ${shown(ratioPerRound(ours, hono))}, at equal CPU ${shown(cpuRatioPerRound(ours, hono))}`,
      );
    }
  } finally {
    for (const server of Object.values(servers)) server.stop();
  }
}

await (process.argv.includes('--paired') ? paired() : profileOne());
