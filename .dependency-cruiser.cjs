/** The import graph's rules (npm run check:imports): no cycles, and no import back up the request path. */

/**
 * The floors of the code, top to bottom, in the order a request passes them. A module may import
 * from its own floor and the floors below it, never from one above.
 */
const FLOORS = [
  // What users run or import: the command, the test kit, each runtime's entry (serve(), the service worker).
  ['entries', '^cli/|^testing/|^runtimes/'],
  // The one composition root and the package's public face: every product is built there.
  ['compose', '^compose/'],
  // Traces and metrics through the OpenTelemetry API (petstore-service/opentelemetry): the option the composition root is given.
  ['telemetry', '^telemetry/'],
  // How each host's objects become the core's one Host: node:http's request view and direct path, Deno's, Bun's and Hono's contexts.
  ['hosts', '^hosts/'],
  // Where pets and limits live besides memory (IndexedDB, Redis, SQL).
  ['stores', '^stores/'],
  // The fake-backend layer the composition root can put in front of the API: clock, faults, journal, admin API.
  ['controls', '^controls/'],
  ['api', '^src/(index|api|handle|options)\\.ts$'],
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
  comment: `${name} is below ${FLOORS.slice(0, index + 1)
    .map(([above]) => above)
    .join(', ')}: it must not import from them`,
  severity: 'error',
  // Should a floor's pattern also match a floor above it, the higher floor wins.
  from: {
    path,
    pathNot: FLOORS.slice(0, index + 1)
      .map(([, above]) => `(${above})`)
      .join('|'),
  },
  to: {
    path: FLOORS.slice(0, index + 1)
      .map(([, above]) => `(${above})`)
      .join('|'),
  },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'A cycle makes two modules one: break it', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    {
      name: 'core-through-its-entry',
      comment: 'Outside src/, the core is imported through src/index.ts only: one seam, not a module per need',
      severity: 'error',
      from: { path: '^(compose|controls|hosts|runtimes|stores|testing|telemetry|cli)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/', pathNot: '^src/index\\.ts$' },
    },
    {
      name: 'controls-through-its-door',
      comment:
        'Outside controls/, the fake backend is imported through controls/index.ts (or without-admin.ts, the same less the admin API) only: its rooms are free to move',
      severity: 'error',
      from: { path: '^(src|compose|hosts|runtimes|stores|testing|telemetry|cli)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^controls/', pathNot: '^controls/(index|without-admin)\\.ts$' },
    },
    {
      name: 'admin-only-from-the-top',
      comment: 'No room of controls/ imports the admin API: admin/ is built on them, and the door without it must stay so',
      severity: 'error',
      from: { path: '^controls/', pathNot: '^controls/(admin/|index\\.ts$)' },
      to: { path: '^controls/admin/' },
    },
    {
      name: 'service-worker-without-admin',
      comment:
        'The service worker never reaches the admin API, not even through a type: the page drives it by postMessage, and its bundle has 40 kB (controls/without-admin.ts is its door)',
      severity: 'error',
      from: { path: '^runtimes/service-worker/' },
      to: { path: '^controls/admin/', reachable: true },
    },
    {
      name: 'core-is-runtime-neutral',
      comment: 'src/ runs in every runtime and the browser: no node: modules',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'telemetry-is-runtime-neutral',
      comment: 'petstore-service/opentelemetry runs wherever the store does (Workers, Deno, Bun, a service worker): no node: modules',
      severity: 'error',
      from: { path: '^telemetry/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'opentelemetry-only-where-asked',
      comment:
        'Only petstore-service/opentelemetry (and the command, which exports metrics) imports @opentelemetry: no other entry, the service worker and Workers bundles least of all, may carry it',
      severity: 'error',
      from: { path: '^(src|compose|controls|hosts|runtimes|stores|testing)/', pathNot: '\\.test\\.ts$' },
      to: { path: '(^|/)node_modules/@opentelemetry/|^@opentelemetry/|^telemetry/' },
    },
    {
      name: 'every-file-is-reached',
      comment: 'A module nothing imports is dead (entries, tests and type declarations aside)',
      severity: 'error',
      from: {
        orphan: true,
        pathNot: [
          '\\.test\\.ts$',
          '\\.d\\.ts$',
          '^compose/index\\.ts$',
          '^(runtimes|stores)/[^/]+/index\\.ts$',
          '^(testing|cli)/index\\.ts$',
          '^testing/conformance/index\\.ts$',
          '^testing/playwright\\.ts$',
          '^testing/testcontainers\\.ts$',
          '^telemetry/index\\.ts$',
          '^runtimes/service-worker/worker\\.ts$',
          // The dashboard's script is bundled by esbuild from its path, never imported (controls/dashboard/client/main.ts).
          '^controls/dashboard/client/main\\.ts$',
        ],
      },
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
