/** The same HTTP suite against example servers on Node 20, Node 24, Deno and Bun, each a real process. */
import { CONFORMANCE_KEYS, describeHttpConformance } from './http-conformance.ts';
import { devBinary, node24Binary, startServerProcess } from './processes.ts';

const env = { PETSTORE_API_KEYS: CONFORMANCE_KEYS };

describeHttpConformance(`Node ${process.version} (node-serve example)`, () =>
  startServerProcess(process.execPath, ['examples/node-serve/index.js'], env),
);
describeHttpConformance('Node 24 (npm package node@24)', () =>
  startServerProcess(node24Binary(), ['examples/node-serve/index.js'], env),
);
describeHttpConformance('Deno (npm package deno)', () =>
  startServerProcess(devBinary('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', 'examples/deno/server.ts'], env),
);
describeHttpConformance('Bun (npm package bun)', () => startServerProcess(devBinary('bun'), ['examples/bun/server.ts'], env));
