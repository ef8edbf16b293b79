/** The container image a release publishes, named in one place: the Testcontainers module's default, and what .github/workflows/image.yml pushes. */

declare const __PETSTORE_VERSION__: string | undefined;

/**
 * Where a release pushes the image: GitHub's registry, under the repository's name. The release
 * workflow (.github/workflows/image.yml) reads this line, so the module and the registry agree.
 *
 * @example
 * `${IMAGE_REPOSITORY}:0.1.0`; // 'ghcr.io/petstore-service/petstore-service:0.1.0'
 */
export const IMAGE_REPOSITORY = 'ghcr.io/petstore-service/petstore-service';

/**
 * The image of this version of the package, which its release pushed: tsup writes the version in
 * at build time; run from source (the tests), `latest`.
 *
 * @example
 * DEFAULT_IMAGE; // 'ghcr.io/petstore-service/petstore-service:0.1.0' in the package built from 0.1.0
 */
export const DEFAULT_IMAGE = `${IMAGE_REPOSITORY}:${typeof __PETSTORE_VERSION__ === 'string' ? __PETSTORE_VERSION__ : 'latest'}`;
