/** The built command on a real redis-server stopped and started again: /readyz goes 503 naming Redis and back to 200, while /healthz stays 200. */
// @module-tag redis (skipped without redis-server, failed under CI: test/helpers/system-parts.ts)
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ask, duringOutage, startCommand, untilReadyz } from '../helpers/readiness-command.ts';
import { startRedis, type TestRedis } from './redis-server.ts';

let redis: TestRedis;
/** Set while the test has redis-server stopped, so a failure halfway leaves it started for the next. */
let stopped = false;

beforeAll(async () => {
  if (!existsSync('dist/cli/index.js')) throw new Error('build the command first: npx tsup');
  redis = await startRedis();
}, 30_000);
afterEach(async () => {
  if (stopped) await redis.start();
  stopped = false;
});
afterAll(async () => {
  await redis?.stop();
});

describe('petstore-service --redis while redis-server stops and starts again', () => {
  it('answers /readyz 503 naming Redis while it is down, API requests with JSON errors, and 200 again once it is back', async ({ annotate }) => {
    const command = await startCommand(['--redis', redis.url]);
    expect(await ask(`${command.origin}/readyz`)).toEqual({ status: 200, body: { status: 'ok' } });
    const before = await ask(`${command.api}/pets`, { method: 'POST', body: { name: 'Before', categoryId: 1 } });
    expect(before.status).toBe(201);

    await redis.stop();
    stopped = true;
    const down = await untilReadyz(command, 503, 10_000);
    expect(down.answer.body).toEqual({ code: 'service_unavailable', message: 'Not ready: Redis (pets, rate limits) does not answer.', status: 503 });
    expect(await duringOutage(command)).toEqual([500, 500, 500]);

    await redis.start();
    stopped = false;
    // The client reconnects by itself, at most 2 s apart (cli/stores.ts): the probe follows it.
    const up = await untilReadyz(command, 200, 15_000);
    await annotate(`/readyz answered 503 ${down.ms} ms after redis-server stopped, 200 ${up.ms} ms after it started again`);
    expect(up.answer.body).toEqual({ status: 'ok' });
    expect(await ask(`${command.origin}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await ask(`${command.api}/pets/1`)).toEqual({ status: 200, body: before.body });
    expect((await ask(`${command.api}/pets`, { method: 'POST', body: { name: 'After', categoryId: 2 } })).status).toBe(201);
  }, 60_000);
});
