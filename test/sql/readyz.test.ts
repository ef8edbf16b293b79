/** The built command on a real PostgreSQL stopped and started again with pg_ctl: /readyz goes 503 naming PostgreSQL and back to 200, while /healthz stays 200. */
// @module-tag postgres (skipped without PostgreSQL, failed under CI: test/helpers/system-parts.ts)
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ask, duringOutage, startCommand, untilReadyz } from '../helpers/readiness-command.ts';
import { startPostgres, type TestPostgres } from './postgres-server.ts';

let pg: TestPostgres;
/** Set while the test has PostgreSQL stopped, so a failure halfway leaves it started for the next. */
let stopped = false;

// initdb, then pg_ctl start, which waits up to 60 s itself.
beforeAll(async () => {
  if (!existsSync('dist/cli/index.js')) throw new Error('build the command first: npx tsup');
  pg = await startPostgres();
}, 120_000);
afterEach(async () => {
  if (stopped) await pg.startServer();
  stopped = false;
}, 90_000);
afterAll(async () => {
  await pg?.stop();
}, 90_000);

describe('petstore-service --database-url while PostgreSQL stops and starts again', () => {
  for (const mode of ['immediate', 'fast'] as const) {
    it(`answers /readyz 503 naming PostgreSQL while it is down (pg_ctl stop -m ${mode}), API requests with JSON errors, and 200 again once it is back`, async ({
      annotate,
    }) => {
      const command = await startCommand(['--database-url', await pg.freshDatabase()]);
      expect(await ask(`${command.origin}/readyz`)).toEqual({ status: 200, body: { status: 'ok' } });
      const before = await ask(`${command.api}/pets`, { method: 'POST', body: { name: 'Before', categoryId: 1 } });
      expect(before.status).toBe(201);

      await pg.stopServer(mode);
      stopped = true;
      const down = await untilReadyz(command, 503, 10_000);
      expect(down.answer.body).toEqual({ code: 'service_unavailable', message: 'Not ready: PostgreSQL (pets, rate limits) does not answer.', status: 503 });
      expect(await duringOutage(command)).toEqual([500, 500, 500]);

      await pg.startServer();
      stopped = false;
      // The pool connects again half a second after a connection is next needed (cli/stores.ts): the probe is that need.
      const up = await untilReadyz(command, 200, 15_000);
      await annotate(`/readyz answered 503 ${down.ms} ms after PostgreSQL stopped, 200 ${up.ms} ms after pg_ctl start returned`);
      expect(up.answer.body).toEqual({ status: 'ok' });
      expect(await ask(`${command.origin}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
      expect(await ask(`${command.api}/pets/1`)).toEqual({ status: 200, body: before.body });
      expect((await ask(`${command.api}/pets`, { method: 'POST', body: { name: 'After', categoryId: 2 } })).status).toBe(201);
    }, 90_000);
  }
});
