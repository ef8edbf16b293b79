// @ts-check
/**
 * Two instances (INSTANCES) on ports 8081 and 8082 (from PORT), sharing pets in PostgreSQL and quotas
 * in Redis, as a load balancer would front them:
 * `DATABASE_URL=postgres://… REDIS_URL=redis://… node examples/many-instances/index.js`.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';

const count = Number(process.env.INSTANCES ?? 2);
const firstPort = Number(process.env.PORT ?? 8081);
const instanceFile = new URL('./instance.js', import.meta.url);

// PORT=0: every instance picks a free port of its own. Detached: Ctrl-C reaches this process
// only, which stops each instance once, gracefully.
const instances = Array.from({ length: count }, (_, i) =>
  fork(instanceFile, { detached: true, env: { ...process.env, PORT: String(firstPort && firstPort + i) } }),
);

// One instance dying unexpectedly stops the others: a half-started fleet is worse than none.
let stopping = false;
const stop = () => {
  stopping = true;
  for (const instance of instances) instance.kill('SIGTERM');
};
const exits = instances.map(async (instance) => {
  const [code, signal] = await once(instance, 'exit');
  if (!stopping) {
    console.error(`instance ${instance.pid} exited (${signal ?? code}); stopping the others`);
    stop();
  }
  return code === 0 && !signal;
});
process.once('SIGINT', stop).once('SIGTERM', stop);
process.exitCode = (await Promise.all(exits)).every(Boolean) && stopping ? 0 : 1;
