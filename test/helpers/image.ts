/**
 * The container image the container suites run: `petstore-service:test`, built from the current
 * dist/ by scripts/image.mjs, once per change rather than once per suite (it carries the hash of
 * its build context, and an unchanged tree leaves it as it is).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { requirePart } from './system-parts.ts';

/**
 * The image the suites run, as podman names a local build.
 *
 * @example
 * await ensureImage();
 * await run('podman', ['run', '--rm', TEST_IMAGE, '--version']);
 */
export const TEST_IMAGE = 'localhost/petstore-service:test';

/**
 * How long building the image may take: the first build installs the package's dependencies and
 * PGlite from the registry (about a minute on a quiet machine); an unchanged tree takes seconds.
 *
 * @example
 * beforeAll(ensureImage, IMAGE_BUILD_MS);
 */
export const IMAGE_BUILD_MS = 600_000;

/**
 * Builds {@link TEST_IMAGE} from the built package (`npm run build` first; `npm test` does) unless
 * the image of that name came from the same tarball and Dockerfile. Without podman and the base
 * image, the podman part's Error (its install line); a failed build, an Error with its output.
 *
 * @example
 * beforeAll(ensureImage, IMAGE_BUILD_MS);
 */
export async function ensureImage(): Promise<string> {
  // Under CI a suite runs without its part: say which part, not how the build failed for want of it.
  requirePart('podman');
  try {
    await promisify(execFile)(process.execPath, ['scripts/image.mjs', '--no-build', '--if-changed', '--tag', TEST_IMAGE], {
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`building ${TEST_IMAGE} failed:\n${stdout}${stderr}`);
  }
  return TEST_IMAGE;
}
