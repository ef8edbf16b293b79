/** The import graph's rules (npm run check:imports): no cycles, and no import back up the request path. */

/**
 * The floors of the code, top to bottom, in the order a request passes them. A module may import
 * from its own floor and the floors below it, never from one above.
 */
const FLOORS = [
  ['adapters', '^adapters/'],
  ['wiring', '^src/(index|pet-store|handler|handle|hooks|node-path|options|listening)\\.ts$|^src/(control|testing|conformance)/'],
  ['edge', '^src/edge/'],
  ['cors', '^src/cors/'],
  ['auth', '^src/auth/'],
  ['limits', '^src/limits/'],
  ['route', '^src/route/'],
  ['operations', '^src/operations/'],
  ['storage', '^src/storage/'],
  ['response', '^src/response/'],
];

const upward = FLOORS.slice(1).map(([name, path], index) => ({
  name: `no-import-up-from-${name}`,
  comment: `${name} is below ${FLOORS.slice(0, index + 1).map(([above]) => above).join(', ')}: it must not import from them`,
  severity: 'error',
  from: { path },
  to: { path: FLOORS.slice(0, index + 1).map(([, above]) => `(${above})`).join('|') },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'A cycle makes two modules one: break it', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    {
      name: 'core-is-runtime-neutral',
      comment: 'src/ runs in every runtime and the browser: no node: modules',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'every-file-is-reached',
      comment: 'A module nothing imports is dead (entries, tests and type declarations aside)',
      severity: 'error',
      from: { orphan: true, pathNot: ['\\.test\\.ts$', '\\.d\\.ts$', '^src/index\\.ts$', '^adapters/[^/]+/index\\.ts$', '^adapters/node/cli\\.ts$', '^src/conformance/index\\.ts$'] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
