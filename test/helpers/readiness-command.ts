/** The built command on a database that goes down and comes back, as a load balancer sees it: /readyz polled to a deadline, /healthz and the API asked meanwhile. */
import { expect } from 'vitest';
import { runCli, type CliProcess } from './cli.ts';

/** The key the suites call the API with, with quota to spare. */
const KEY = 'readiness-test-key';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
/** Longest any one request may take before the test calls it a hang: above every client timeout the command sets (5 s). */
const REQUEST_TIMEOUT_MS = 10_000;
/** Pause between two probes: a probe's own answer takes milliseconds, so this is how often a load balancer would look. */
const PROBE_EVERY_MS = 50;

/**
 * A running command: its origin (where `/healthz` and `/readyz` are) and its API's base URL.
 *
 * @example
 * const command = await startCommand(['--redis', redis.url]);
 * await fetch(`${command.origin}/readyz`);
 */
export interface RunningCommand {
  readonly origin: string;
  readonly api: string;
  readonly cli: CliProcess;
}

/**
 * What one request got: its status and its body as JSON (every answer of the pet store is JSON).
 *
 * @example
 * const answer: Answer = { status: 200, body: { status: 'ok' } };
 */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * `petstore-service --port 0 …args` with a key of its own, once it says where it listens.
 *
 * @example
 * const command = await startCommand(['--database-url', url]);
 */
export async function startCommand(args: string[]): Promise<RunningCommand> {
  const cli = runCli(['--port', '0', '--key', `${KEY}:enterprise:1000000:1000000`, ...args]);
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = /listening on (\S+)\n/.exec(cli.stdout())?.[1];
      if (found) resolve(found);
    };
    cli.child.stdout!.on('data', look);
    look();
    void cli.exited.then(({ code, stdout, stderr }) => reject(new Error(`the command exited with ${code}:\n${stdout}${stderr}`)));
  });
  return { origin: new URL(url).origin, api: url, cli };
}

/**
 * `method url` as the tests send it: the key, a JSON body when given, and a deadline, past which
 * the request fails as a hang.
 *
 * @example
 * const { status, body } = await ask(`${command.origin}/healthz`);
 */
export async function ask(url: string, { method = 'GET', body }: { method?: string; body?: unknown } = {}): Promise<Answer> {
  const init: RequestInit = { method, headers: auth, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(url, init);
  expect(response.headers.get('content-type')).toBe('application/json');
  return { status: response.status, body: await response.json() };
}

/**
 * Asks `/readyz` until it answers `status` (every {@link PROBE_EVERY_MS}), as a load balancer's
 * probe would; fails with the last answer once `deadlineMs` has passed. Resolves to that answer
 * and how long it took.
 *
 * @example
 * const { answer, ms } = await untilReadyz(command, 200, 15_000);
 */
export async function untilReadyz(command: RunningCommand, status: number, deadlineMs: number): Promise<{ answer: Answer; ms: number }> {
  const started = performance.now();
  for (;;) {
    const answer = await ask(`${command.origin}/readyz`);
    const ms = Math.round(performance.now() - started);
    if (answer.status === status) return { answer, ms };
    if (ms > deadlineMs) throw new Error(`/readyz still answered ${JSON.stringify(answer)} after ${ms} ms, not ${status}\n${command.cli.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
}

/**
 * While the database is down: `/healthz` still answers 200 (the process is alive, so no restart),
 * and a list, a read and a create each get a JSON error in time, never a hang. Resolves to the
 * API's three statuses.
 *
 * @example
 * expect(await duringOutage(command)).toEqual([500, 500, 500]);
 */
export async function duringOutage(command: RunningCommand): Promise<number[]> {
  expect(await ask(`${command.origin}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
  const answers = await Promise.all([
    ask(`${command.api}/pets`),
    ask(`${command.api}/pets/1`),
    ask(`${command.api}/pets`, { method: 'POST', body: { name: 'During', categoryId: 1 } }),
  ]);
  for (const { status, body } of answers) {
    expect(body).toEqual({ code: expect.any(String), message: expect.any(String), status });
  }
  return answers.map((answer) => answer.status);
}
