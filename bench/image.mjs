// The container image's size over its base (issue #50: at most 40 MB): container/Dockerfile built from the current dist/ by scripts/image.mjs, with podman or docker, whichever is present. `node bench/image.mjs` prints it alone.
import { execFileSync, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** The tag the bench builds, apart from `npm run image`'s petstore-service:dev and the tests' petstore-service:test. */
const TAG = 'localhost/petstore-service:bench';
const BASE = 'docker.io/library/node:20-bookworm-slim';
/** The budget for the layers over the base, in MB (10^6 bytes, as podman and docker count image sizes). */
export const IMAGE_BUDGET_MB = 40;

/** The image's layers over the base: bytes unpacked (what podman and docker report as an image's size), and how many layers; or why it could not be measured. */
export function imageSize() {
  const engine = ['podman', 'docker'].find((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0);
  if (!engine) return { missing: 'neither podman nor docker is on PATH' };
  if (spawnSync(engine, ['image', 'inspect', BASE], { stdio: 'ignore' }).status !== 0) return { missing: `${engine} has no ${BASE} image` };
  const built = spawnSync(process.execPath, ['scripts/image.mjs', '--no-build', '--if-changed', '--tag', TAG], { encoding: 'utf8' });
  if (built.status !== 0) return { missing: `the build failed: ${(built.stderr || built.stdout).trim().split('\n').at(-1)}` };
  // Both print a JSON array of one image without --format.
  const inspect = (image) => JSON.parse(execFileSync(engine, ['image', 'inspect', image], { encoding: 'utf8' }))[0];
  const [image, base] = [inspect(TAG), inspect(BASE)];
  const baseLayers = new Set(base.RootFS.Layers);
  return { engine, bytes: image.Size - base.Size, layers: image.RootFS.Layers.filter((layer) => !baseLayers.has(layer)).length };
}

/** BENCHMARKS.md's section on the image: its layers over the base in MB against the budget, or why there is no figure. */
export function imageSection(size) {
  if (size.missing) return `## Container image\n\nNot measured: ${size.missing}.\n`;
  const mb = size.bytes / 1e6;
  return `## Container image

The image \`npm run image\` builds (container/Dockerfile: the package installed with its production dependencies, the
PGlite and postgres drivers), measured with ${size.engine}: its ${size.layers} layers over \`node:20-bookworm-slim\` hold
**${mb.toFixed(1)} MB** unpacked (at most ${IMAGE_BUDGET_MB} MB ${mb <= IMAGE_BUDGET_MB ? '✅' : '❌'}).
`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(imageSection(imageSize()));
