/**
 * The compose recipes of examples/container, run as docs/container.md shows them (`podman-compose
 * -f … up -d`, requests, `down -v`) against the image built from this tree, with local stand-ins
 * for postgres:16 and redis:7 (test/helpers/stand-in-images.ts: no registry is reachable here).
 */
// @module-tag podman (skipped without podman or podman-compose, failed under CI: test/helpers/system-parts.ts)
// @module-tag podman-compose
import { execFile } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { ensureImage, IMAGE_BUILD_MS } from '../helpers/image.ts';
import { ensureStandIns } from '../helpers/stand-in-images.ts';

const run = promisify(execFile);
/** Longest a recipe may take to come up on a busy two-core machine: PostgreSQL's initdb, PGlite's first start, an image build. */
const UP_MS = 240_000;
/** How often a starting recipe is asked whether it is ready, as a healthcheck would ask it. */
const PROBE_EVERY_MS = 250;

/**
 * What a build inside podman-compose needs on this machine besides the recipe: behind a proxy that
 * inspects TLS (NODE_EXTRA_CA_CERTS names its certificate authority), that file mounted into the
 * build and named to npm, through the recipe Dockerfile's NODE_EXTRA_CA_CERTS argument.
 */
function buildArgs(): string[] {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  return ca ? ['--podman-build-args', `--volume ${ca}:${ca}:ro --build-arg NODE_EXTRA_CA_CERTS=${ca}`] : [];
}

/** `podman-compose -f examples/container/<recipe>/compose.yaml …args` with the recipe's variables in `env`: what it printed. */
async function compose(recipe: string, args: string[], env: Record<string, string>): Promise<string> {
  const { stdout, stderr } = await run('podman-compose', [...buildArgs(), '-f', `examples/container/${recipe}/compose.yaml`, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout + stderr;
}

/**
 * `podman-compose down -v`, then the project's network, which podman-compose 1.0 leaves behind
 * (docker compose removes it with the rest).
 */
async function down(recipe: string, env: Record<string, string>): Promise<void> {
  await compose(recipe, ['down', '-v'], env);
  await run('podman', ['network', 'rm', '--force', `${recipe.replaceAll(/[^-_a-z0-9]/g, '')}_default`]).catch(() => {});
}

/** Resolves once `probe` does, asking again every PROBE_EVERY_MS; rejects with `what` past UP_MS. */
async function eventually(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + UP_MS;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${UP_MS / 1000} s`);
    await delay(PROBE_EVERY_MS);
  }
}

/** Once `origin`'s /readyz answers 200, as the image's HEALTHCHECK asks it. */
const ready = (origin: string) =>
  eventually(`${origin}/readyz answering 200`, () =>
    fetch(`${origin}/readyz`).then(
      (response) => response.ok,
      () => false,
    ),
  );

/** Once the container's healthcheck passes: `podman healthcheck run`, what docker compose waits on before a `service_healthy` dependant. */
const healthy = (container: string) =>
  eventually(`${container} healthy`, () =>
    run('podman', ['healthcheck', 'run', container]).then(
      () => true,
      () => false,
    ),
  );

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

let image: string;
beforeAll(async () => {
  [image] = await Promise.all([ensureImage(), ensureStandIns()]);
}, IMAGE_BUILD_MS);

describe('examples/container/alone', () => {
  let env: Record<string, string>;
  let origin: string;
  beforeAll(async () => {
    env = { PETSTORE_IMAGE: image, PETSTORE_PORT: String(await freePort()) };
    origin = `http://127.0.0.1:${env.PETSTORE_PORT}`;
    await down('alone', env); // what a run that crashed left behind
    await compose('alone', ['up', '-d'], env);
    await ready(origin);
  }, UP_MS);
  afterAll(() => down('alone', env), 120_000);

  it(
    'serves the API with the keys of its file, and keeps the pets on its volume through down and up',
    async () => {
      expect((await fetch(`${origin}/v1/pets`)).status).toBe(401);
      const created = await fetch(`${origin}/v1/pets`, { method: 'POST', headers: bearer('demo-key-0123'), body: '{"name":"Rex","categoryId":1}' });
      expect(created.status).toBe(201);
      await compose('alone', ['down'], env);
      await compose('alone', ['up', '-d'], env);
      await ready(origin);
      const listed = await fetch(`${origin}/v1/pets`, { headers: bearer('ci-key-0123') });
      expect([listed.status, await listed.json()]).toEqual([200, [{ id: 1, name: 'Rex', categoryId: 1 }]]);
    },
    UP_MS,
  );
});

describe('examples/container/shared-quota', () => {
  let env: Record<string, string>;
  let origins: [string, string];
  beforeAll(async () => {
    const { stdout: registry } = await run('npm', ['config', 'get', 'registry']);
    env = { PETSTORE_IMAGE: image, NPM_REGISTRY: registry.trim(), PETSTORE_PORT_A: String(await freePort()), PETSTORE_PORT_B: String(await freePort()) };
    origins = [`http://127.0.0.1:${env.PETSTORE_PORT_A}`, `http://127.0.0.1:${env.PETSTORE_PORT_B}`];
    await down('shared-quota', env); // what a run that crashed left behind
    await compose('shared-quota', ['up', '-d', '--build'], env);
    await Promise.all(origins.map(ready));
  }, UP_MS);
  afterAll(() => down('shared-quota', env), 120_000);

  it("names PostgreSQL for pets and Redis for limits in each instance's banner", async () => {
    const logs = await Promise.all(['a', 'b'].map((name) => run('podman', ['logs', `shared-quota_petstore-${name}_1`])));
    expect(logs.map(({ stdout }) => /^Pets: .*$/m.exec(stdout)?.[0])).toEqual(
      Array(2).fill('Pets: PostgreSQL at postgres:5432/petstore; limits: Redis at redis:6379'),
    );
  });

  it("spends tight-key's quota across both instances: one countdown, and the request past it a 429 on whichever gets it", async () => {
    // 5 a minute and 5 a day: the day's window binds, so a minute ending mid-burst changes nothing.
    const answers: string[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await fetch(`${origins[i % 2]}/v1/pets`, { headers: bearer('tight-key-0123') });
      answers.push(`${i % 2 ? 'b' : 'a'} ${response.status} remaining ${response.headers.get('x-ratelimit-remaining')}`);
    }
    expect(answers).toEqual([
      'a 200 remaining 4',
      'b 200 remaining 3',
      'a 200 remaining 2',
      'b 200 remaining 1',
      'a 200 remaining 0',
      'b 429 remaining 0',
      'a 429 remaining 0',
    ]);
  });

  it('lists on one instance the pet created on the other', async () => {
    const created = await fetch(`${origins[0]}/v1/pets`, { method: 'POST', headers: bearer('shop-key-0123'), body: '{"name":"Tom","categoryId":2}' });
    expect(created.status).toBe(201);
    const listed = await fetch(`${origins[1]}/v1/pets`, { headers: bearer('shop-key-0123') });
    expect(await listed.json()).toEqual([await created.json()]);
  });
});

describe('examples/container/e2e', () => {
  const env: Record<string, string> = {};
  beforeAll(async () => {
    env.PETSTORE_IMAGE = image;
    await down('e2e', env); // what a run that crashed left behind
    await compose('e2e', ['up', '-d', 'petstore', 'app'], env);
    // podman-compose 1.0 starts `tests` without waiting for service_healthy; the docs say to wait as here.
    await healthy('e2e_petstore_1');
    await healthy('e2e_app_1');
  }, UP_MS);
  afterAll(() => down('e2e', env), 120_000);

  it(
    "runs the suite's tests service against the app, each test in a sandbox it opens over the admin API",
    async () => {
      const output = stripVTControlCharacters(await compose('e2e', ['run', '--rm', 'tests'], env));
      // podman-compose 1.0 exits 0 whatever the suite did: node --test's summary says how it went.
      expect(output).toMatch(/^ℹ pass 2\r?$/m);
      expect(output).toMatch(/^ℹ fail 0\r?$/m);
    },
    UP_MS,
  );
});
