// npm run image [-- --tag <name>] [--no-build] [--if-changed]: builds the container image (container/Dockerfile) from the working tree, with podman or docker.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** The label an image built here carries: the hash of its build context, so that an unchanged tree need not be built again. */
const CONTEXT_LABEL = 'petstore-service.context';

const { values } = parseArgs({
  options: {
    tag: { type: 'string', default: 'petstore-service:dev' },
    // The tests build from the dist/ `npm test` has just built, which other suites are reading.
    'no-build': { type: 'boolean', default: false },
    // Leave an image of this tag alone when it was built from the same tarball and Dockerfile.
    'if-changed': { type: 'boolean', default: false },
  },
});

/** podman if present, else docker: the first that answers `--version`. */
const engine = ['podman', 'docker'].find((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0);
if (!engine) {
  console.error('npm run image: neither podman nor docker is on PATH; install one of them (e.g. sudo apt-get install podman)');
  process.exit(2);
}

/** npm itself: the npm running this script (npm run image), or the one on PATH. */
const npm = process.env.npm_execpath?.endsWith('.js') ? [process.execPath, process.env.npm_execpath] : ['npm'];
const runNpm = (args, options = {}) => execFileSync(npm[0], [...npm.slice(1), ...args], { encoding: 'utf8', ...options });

if (!values['no-build']) runNpm(['run', 'build', '--silent'], { stdio: 'inherit' });
else if (!existsSync('dist/cli/index.js')) {
  console.error('npm run image: --no-build, and there is no dist/cli/index.js; run npm run build first');
  process.exit(2);
}

/** Packs the package into `context` beside the Dockerfile and builds the image there: the exit code. */
function buildIn(context) {
  // The package as npm publishes it: what a user installs, with nothing of the tree it was not given.
  const [{ filename }] = JSON.parse(runNpm(['pack', '--json', '--pack-destination', context], { stdio: ['ignore', 'pipe', 'inherit'] }));
  copyFileSync('container/Dockerfile', join(context, 'Dockerfile'));
  // The certificate authorities this machine's Node trusts besides the usual ones (a proxy that
  // inspects TLS), for npm inside the build: only the install stage sees them.
  const extraCa = process.env.NODE_EXTRA_CA_CERTS && existsSync(process.env.NODE_EXTRA_CA_CERTS) ? 'extra-ca-certs.pem' : undefined;
  if (extraCa) copyFileSync(process.env.NODE_EXTRA_CA_CERTS, join(context, extraCa));
  const hash = createHash('sha256');
  for (const file of ['Dockerfile', filename]) hash.update(readFileSync(join(context, file)));
  const contextHash = hash.digest('hex').slice(0, 16);

  const inspected = spawnSync(engine, ['image', 'inspect', '--format', `{{index .Config.Labels "${CONTEXT_LABEL}"}}`, values.tag], { encoding: 'utf8' });
  if (values['if-changed'] && inspected.status === 0 && inspected.stdout.trim() === contextHash) {
    console.log(`${values.tag} is up to date (context ${contextHash})`);
    return 0;
  }
  // The registry this machine's npm uses, for the install inside the build; a build argument, so it is in no file.
  const registry = runNpm(['config', 'get', 'registry']).trim();
  const args = [
    'build',
    // podman's default OCI format has no HEALTHCHECK; the docker format keeps it.
    ...(engine === 'podman' ? ['--format', 'docker'] : []),
    // The install reaches the registry through the host's network, as npm here does.
    '--network',
    'host',
    '--build-arg',
    `PACKAGE=/tmp/context/${filename}`,
    '--build-arg',
    `NPM_REGISTRY=${registry}`,
    ...(extraCa ? ['--build-arg', `NODE_EXTRA_CA_CERTS=/tmp/context/${extraCa}`] : []),
    '--label',
    `${CONTEXT_LABEL}=${contextHash}`,
    '--tag',
    values.tag,
    context,
  ];
  const built = spawnSync(engine, args, { stdio: 'inherit' });
  if (built.status !== 0) {
    console.error(`npm run image: ${engine} build failed (exit ${built.status ?? built.signal})`);
    return 1;
  }
  console.log(`Built ${values.tag} with ${engine}. Run it: ${engine} run --rm -p 8080:8080 -e PETSTORE_API_KEYS=my-key:free ${values.tag}`);
  return 0;
}

const context = mkdtempSync(join(tmpdir(), 'petstore-image-'));
try {
  process.exitCode = buildIn(context);
} finally {
  rmSync(context, { recursive: true, force: true });
}
