/**
 * Local stand-ins for the official `postgres:16` and `redis:7` images, which examples/container's
 * compose recipes name and no image registry here can give: each built once from
 * test/container/stand-ins/<name>/ on the local node:20-bookworm-slim base, under the official name.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const STAND_INS = resolve('test/container/stand-ins');
/** The label a stand-in carries: the hash of its folder, so a changed stand-in is built again. */
const LABEL = 'petstore-service.stand-in';

/** The official images the recipes name, by the folder their stand-ins are built from. */
const STAND_IN_IMAGES = { postgres: 'docker.io/library/postgres:16', redis: 'docker.io/library/redis:7' } as const;

/** The hash of a stand-in's folder (its Containerfile and entrypoint), as its label holds it. */
function folderHash(folder: string): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(folder).sort()) hash.update(file).update(readFileSync(join(folder, file)));
  return hash.digest('hex').slice(0, 16);
}

/** The stand-in label of a local image: '' for an image without one (a real image), undefined when there is no such image. */
async function labelOf(image: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('podman', ['image', 'inspect', '--format', `{{index .Labels "${LABEL}"}}`, image]);
    return stdout.trim().replace('<no value>', '');
  } catch {
    return undefined;
  }
}

/**
 * Builds each stand-in that is missing, or stale (a stand-in of another folder hash); an image of
 * that name without the label is a real one, pulled by someone, and is left as it is. Debian's
 * packages come over the host's network (`--network host`); the base is the local
 * node:20-bookworm-slim (`--pull=never`).
 *
 * @example
 * await ensureStandIns(); // then `podman-compose up` finds postgres:16 and redis:7 locally
 */
export async function ensureStandIns(): Promise<void> {
  for (const [name, image] of Object.entries(STAND_IN_IMAGES)) {
    const folder = join(STAND_INS, name);
    const hash = folderHash(folder);
    const label = await labelOf(image);
    if (label === hash || label === '') continue;
    await run('podman', ['build', '--pull=never', '--network', 'host', '--format', 'docker', '--label', `${LABEL}=${hash}`, '--tag', image, folder], {
      maxBuffer: 64 * 1024 * 1024,
    });
  }
}
