/** Starting each `npm run example:<name>` recipe as a real process, and HTTP from a chosen loopback address. */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { testServerBases } from '../contract/record.ts';
import { CONFORMANCE_KEYS } from '../runtimes/http-conformance.ts';
import { bunBinary, denoBinary, startServerProcess, type ServerProcess } from '../runtimes/processes.ts';

/** Every host the README has a recipe for, as in `npm run example:<name>`. */
export const EXAMPLES = ['express', 'fastify', 'koa', 'hono', 'node', 'deno', 'bun', 'workers'] as const;
export type ExampleName = (typeof EXAMPLES)[number];

const scripts: Record<string, string> = JSON.parse(readFileSync('package.json', 'utf8')).scripts;

/** The runtimes `node scripts/runtime.mjs <runtime> …` installs on first use and runs. */
const RUNTIMES: Record<string, () => Promise<string>> = { deno: denoBinary, bun: bunBinary };

/** Examples that must stop children first: Miniflare's workerd outlives a killed Node. */
const STOP_SIGNALS: Partial<Record<ExampleName, NodeJS.Signals>> = { workers: 'SIGTERM' };

/**
 * Runs the command behind `npm run example:<name>` directly (not through npm, so stopping the
 * process stops the server), with PORT=0 and {@link CONFORMANCE_KEYS}, then `env`. The command is `node`
 * (this Node), or `node scripts/runtime.mjs deno|bun …`, whose runtime is started here itself,
 * without the wrapper process between.
 */
export async function startExample(name: ExampleName, env: Record<string, string> = {}): Promise<ServerProcess> {
  const script = scripts[`example:${name}`];
  if (!script) throw new Error(`package.json has no script example:${name}`);
  const [command = '', ...args] = script.split(' ');
  if (command !== 'node') throw new Error(`example:${name} does not start with node: ${script}`);
  const runtime = args[0] === 'scripts/runtime.mjs' ? RUNTIMES[args[1] ?? ''] : undefined;
  const server = await startServerProcess(
    runtime ? await runtime() : process.execPath,
    runtime ? args.slice(2) : args,
    { PETSTORE_API_KEYS: CONFORMANCE_KEYS, ...env },
    { stopSignal: STOP_SIGNALS[name] },
  );
  // Its responses are checked against the served OpenAPI document too (test/contract/record.ts).
  testServerBases.add(server.url);
  return server;
}

/** What came back on the wire: status, headers as Node parsed them, and the body as text. */
export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export interface WireRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** The loopback address the connection comes from (`127.0.0.2`): what the server sees as the caller. */
  readonly localAddress?: string;
}

/** One request on a fresh connection (no keep-alive), so `localAddress` is exactly the peer the server sees. */
export function wire(url: string, { method = 'GET', headers = {}, body, localAddress }: WireRequest = {}): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers: { connection: 'close', ...headers }, localAddress, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
