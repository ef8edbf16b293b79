/** The same HTTP suite against example servers on Node 20, Node 24, Deno and Bun, each a real process. */
import { CONFORMANCE_KEYS, describeHttpConformance } from './http-conformance.ts';
import { bunBinary, denoBinary, node24Binary, startServerProcess } from './processes.ts';

const env = { PETSTORE_API_KEYS: CONFORMANCE_KEYS };
// Installed on first use (scripts/runtime.mjs): here, before any hook's timeout starts.
const [node24, deno, bun] = await Promise.all([node24Binary(), denoBinary(), bunBinary()]);

describeHttpConformance(`Node ${process.version} (node-serve example)`, () => startServerProcess(process.execPath, ['examples/node-serve/index.js'], env));
describeHttpConformance('Node 24 (npm package node@24)', () => startServerProcess(node24, ['examples/node-serve/index.js'], env));
describeHttpConformance('Deno (npm package deno)', () =>
  startServerProcess(deno, ['run', '--allow-net', '--allow-env', '--allow-read', 'examples/deno/server.ts'], env),
);
describeHttpConformance('Bun (npm package bun)', () => startServerProcess(bun, ['examples/bun/server.ts'], env));
