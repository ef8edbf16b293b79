/** The image's name: the repository's own on GitHub's registry, so a release pushes where the Testcontainers module looks. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE, IMAGE_REPOSITORY } from './image-name.ts';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { repository: { url: string } };

describe('the image name', () => {
  it("is ghcr.io under the owner and name of package.json's repository", () => {
    const [, owner, name] = /github\.com\/([^/]+)\/([^/.]+)/.exec(pkg.repository.url)!;
    expect(IMAGE_REPOSITORY).toBe(`ghcr.io/${owner}/${name}`.toLowerCase());
  });

  it('is tagged latest when run from source, where no version was built in', () => {
    expect(DEFAULT_IMAGE).toBe(`${IMAGE_REPOSITORY}:latest`);
  });

  it('is the line the release workflow reads its repository from', () => {
    const workflow = readFileSync('.github/workflows/image.yml', 'utf8');
    expect(workflow).toContain('testing/image-name.ts');
    const line = readFileSync('testing/image-name.ts', 'utf8')
      .split('\n')
      .find((text) => text.startsWith('export const IMAGE_REPOSITORY = '));
    expect(line).toBe(`export const IMAGE_REPOSITORY = '${IMAGE_REPOSITORY}';`);
  });
});
