// @module-tag podman (skipped without podman and the node base image, failed under CI: test/helpers/system-parts.ts)
/**
 * The container image as a user runs it with podman (container/Dockerfile, built by
 * scripts/image.mjs from the built package): keys from the environment, the node user, the
 * healthcheck on whatever PORT says, pets on a /data volume across a restart and in a new
 * container, a clean stop on SIGTERM, and no secret in the image. Each container is removed after
 * the file, as is the volume.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { ensureImage, IMAGE_BUILD_MS, TEST_IMAGE } from '../helpers/image.ts';
import { BASE_IMAGE } from '../helpers/system-parts.ts';

const exec = promisify(execFile);
/** `podman …args`' standard output, trimmed; a failure rejects with podman's own message. */
const podman = async (...args: string[]) => (await exec('podman', args, { maxBuffer: 512 * 1024 * 1024 })).stdout.trim();

/** A podman process attached to a container's output: `podman run` or `podman start --attach`. */
interface Attached {
  readonly child: ChildProcess;
  /** What the container has printed so far, stdout and stderr together. */
  output(): string;
  /** The container's exit code, which the attached podman exits with. */
  readonly exited: Promise<number | null>;
}

const attached: Attached[] = [];
const containers: string[] = [];
const volumes: string[] = [];
const unique = () => `petstore-test-${randomBytes(4).toString('hex')}`;

/** `podman …args`, attached: the container's output as it comes. */
function attach(args: string[]): Attached {
  const child = spawn('podman', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const handle = { child, output: () => text, exited };
  attached.push(handle);
  return handle;
}

/** Resolves once the command inside says it listens; rejects with its output if the container ends first. */
async function listening(container: Attached): Promise<void> {
  while (!/Pet Store API listening on /.test(container.output())) {
    if (container.child.exitCode !== null) throw new Error(`the container exited with ${container.child.exitCode}:\n${container.output()}`);
    await Promise.race([once(container.child.stdout!, 'data'), once(container.child.stderr!, 'data'), container.exited]);
  }
}

/** `podman run` of the test image, named `name`, its port published on a free port of 127.0.0.1: the URL, once it listens. */
async function run(name: string, env: Record<string, string>, { port = 8080, volume }: { port?: number; volume?: string } = {}) {
  const hostPort = await freePort();
  containers.push(name);
  const flags = Object.entries({ PORT: String(port), ...env }).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  const container = attach(['run', '--name', name, '-p', `127.0.0.1:${hostPort}:${port}`, ...(volume ? ['-v', `${volume}:/data`] : []), ...flags, TEST_IMAGE]);
  await listening(container);
  return { container, url: `http://127.0.0.1:${hostPort}` };
}

/** The health podman records for a container after running its healthcheck now (podman runs none by itself without systemd). */
async function health(name: string): Promise<string> {
  await exec('podman', ['healthcheck', 'run', name]).catch(() => undefined);
  return podman('inspect', '--format', '{{.State.Health.Status}}', name);
}

const KEY = `ctr-key-${randomBytes(12).toString('hex')}`;
const ADMIN_TOKEN = `ctr-admin-${randomBytes(12).toString('hex')}`;
const auth = (key = KEY) => ({ authorization: `Bearer ${key}` });

beforeAll(ensureImage, IMAGE_BUILD_MS);

afterAll(async () => {
  if (containers.length) await podman('rm', '--force', '--time', '0', ...containers).catch(() => undefined);
  if (volumes.length) await podman('volume', 'rm', '--force', ...volumes).catch(() => undefined);
  for (const { child } of attached) child.kill('SIGKILL');
}, 120_000);

/** The bound on a stop, in seconds, as podman's `stop --time` takes it. */
const STOP_GRACE_S = '2';

describe('the image, with keys, admin token and pets from the environment', { tags: ['podman'] }, () => {
  const name = unique();
  let url: string;
  let server: Attached;

  beforeAll(async () => {
    ({ container: server, url } = await run(name, { PETSTORE_API_KEYS: `${KEY}:free`, PETSTORE_ADMIN_TOKEN: ADMIN_TOKEN, PETSTORE_GENERATE: '5:7' }));
  }, 120_000);

  it("serves GET /v1/pets to a key from PETSTORE_API_KEYS, PETSTORE_GENERATE's pets, and a 401 without a key", async () => {
    const answer = await fetch(`${url}/v1/pets`, { headers: auth() });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toHaveLength(5);
    const refused = await fetch(`${url}/v1/pets`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(server.output()).toContain('Using 1 API key(s) from PETSTORE_API_KEYS.');
  });

  it('turns on the admin API from PETSTORE_ADMIN_TOKEN', async () => {
    const answer = await fetch(`${url}/__admin/pets`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(answer.status).toBe(200);
  });

  it('runs the server as uid 1000 (node), with /data its own', async () => {
    expect(await podman('inspect', '--format', '{{.Config.User}}', name)).toBe('node');
    // PID 1 is the server itself: node, not a shell in front of it.
    const status = await podman('exec', name, 'cat', '/proc/1/status');
    expect(status).toMatch(/^Uid:\t1000\t1000\t1000\t1000$/m);
    expect(await podman('exec', name, 'cat', '/proc/1/cmdline')).toMatch(/^node\0/);
    expect(await podman('exec', name, 'stat', '--format', '%u %U', '/data')).toBe('1000 node');
  });

  it('turns healthy', async () => {
    expect(await health(name)).toBe('healthy');
  });

  it('keeps no key or token in the image: not in its history, its configuration or its layers over the base', async () => {
    // The keys given at run, and npm's words for a registry token.
    const secrets = [KEY, ADMIN_TOKEN, '_authToken', '_auth='];
    const history = await podman('history', '--no-trunc', '--format', '{{.CreatedBy}}', TEST_IMAGE);
    // The install's stage, where the registry was a build argument, left nothing of itself in the
    // history (a step that uses a build argument shows its value there).
    expect(history).not.toContain('npm install');
    const inspect = await podman('image', 'inspect', TEST_IMAGE);
    for (const secret of [...secrets, 'NPM_REGISTRY']) {
      expect(history).not.toContain(secret);
      expect(inspect).not.toContain(secret);
    }
    const folder = mkdtempSync(join(tmpdir(), 'petstore-image-save-'));
    try {
      const archive = join(folder, 'image.tar');
      await podman('save', '--format', 'docker-archive', '--output', archive, TEST_IMAGE);
      const baseLayers = new Set<string>(JSON.parse(await podman('image', 'inspect', '--format', '{{json .RootFS.Layers}}', BASE_IMAGE)));
      const layers: string[] = JSON.parse(await podman('image', 'inspect', '--format', '{{json .RootFS.Layers}}', TEST_IMAGE));
      const ours = layers.filter((layer) => !baseLayers.has(layer)).map((layer) => `${layer.replace(/^sha256:/, '')}.tar`);
      expect(ours.length).toBeGreaterThan(0);
      await exec('tar', ['-xf', archive, '-C', folder, ...ours]);
      for (const layer of ours) {
        const bytes = readFileSync(join(folder, layer));
        for (const secret of secrets) expect(bytes.includes(secret), `${secret} in layer ${layer}`).toBe(false);
        // Nor what a build could leave a token in: npm's configuration and cache, the build context.
        const files = (await exec('tar', ['-tf', join(folder, layer)], { maxBuffer: 64 * 1024 * 1024 })).stdout.split('\n');
        expect(files.filter((file) => /(^|\/)\.npmrc$|(^|\/)\.npm\/|^tmp\/context\//.test(file))).toEqual([]);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('stops on SIGTERM with exit code 0 within 2 s, its last access log line written', async () => {
    expect((await fetch(`${url}/v1/pets?limit=3`, { headers: auth() })).status).toBe(200);
    // podman's grace period is the bound: a command still running 2 s after SIGTERM is killed, exit 137.
    await podman('stop', '--time', STOP_GRACE_S, name);
    expect(await server.exited).toBe(0);
    expect(await podman('inspect', '--format', '{{.State.ExitCode}}', name)).toBe('0');
    expect(server.output()).toMatch(/GET \/v1\/pets\?limit=3 200 /);
  }, 60_000);
});

describe('the image with PETSTORE_DATA on a /data volume, on the PORT it is given', { tags: ['podman'] }, () => {
  const volume = unique();
  const name = unique();
  const port = 9090;
  const env = { PETSTORE_API_KEYS: `${KEY}:pro`, PETSTORE_DATA: '/data' };
  let url: string;
  let server: Attached;

  beforeAll(async () => {
    volumes.push(await podman('volume', 'create', volume));
    ({ container: server, url } = await run(name, env, { port, volume }));
  }, 120_000);

  /** The names of the pets a GET /v1/pets at `at` lists. */
  const names = async (at: string) =>
    ((await (await fetch(`${at}/v1/pets?limit=100`, { headers: auth() })).json()) as { name: string }[]).map((pet) => pet.name);

  it('keeps pets and limits in PGlite in /data, and turns healthy on the port PORT names', async () => {
    expect(server.output()).toContain('Pets and limits: PGlite in /data');
    expect(await health(name)).toBe('healthy');
  });

  it('keeps a pet across a restart of the container', async () => {
    const created = await fetch(`${url}/v1/pets`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    await podman('stop', '--time', '10', name);
    expect(await server.exited).toBe(0);
    server = attach(['start', '--attach', name]);
    await listening(server);
    // The same published port: podman keeps a container's port mapping across a stop and start.
    expect(await names(url)).toEqual(['Kept']);
    expect(await health(name)).toBe('healthy');
  }, 120_000);

  it('gives the pets to a new container on the same volume', async () => {
    await podman('stop', '--time', '10', name);
    const { url: next } = await run(unique(), env, { port, volume });
    expect(await names(next)).toEqual(['Kept']);
  }, 120_000);
});
