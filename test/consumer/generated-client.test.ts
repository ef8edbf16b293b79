/**
 * A consumer of the served document: types generated from `/v1/openapi.json` by openapi-typescript,
 * a client program on openapi-fetch (test/consumer/fixture/consumer.ts) compiled by tsc under strict
 * settings, then run against the built `petstore-service` command with `--fail-rate`. Every answer
 * it received must be one the document declares.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStrictChecker } from '../contract/strict-checker.ts';
import { runCli } from '../helpers/cli.ts';

const KEY = 'consumer-key-0123456789';
/** Two requests a minute, so the program meets a 429. */
const TINY = 'consumer-tiny-0123456789';
const FAIL_RATE = '0.5';
/** tsc with `skipLibCheck: false` reads every declaration file, Node's included. */
const COMPILE_MS = 90_000;

/** The consumer's compiler settings: what a careful TypeScript project turns on. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitReturns: true,
    noPropertyAccessFromIndexSignature: true,
    verbatimModuleSyntax: true,
    skipLibCheck: false,
    outDir: 'out',
  },
  files: ['consumer.ts', 'petstore-api.d.ts'],
};

/** Runs a command to its end: exit code and output, so a failure shows the program's own messages. */
async function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, output: `${stdout}${stderr}` };
  } catch (error) {
    const { code, stdout = '', stderr = '' } = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof code === 'number' ? code : 1, stdout, output: `${stdout}${stderr}` };
  }
}

/** Starts the built command with `--fail-rate` and two keys; resolves to its base URL once it listens. It is killed after the test. */
async function startCommand(): Promise<string> {
  const cli = runCli(['--port', '0', '--quiet', '--fail-rate', FAIL_RATE, '--key', `${KEY}:enterprise:100000:1000000`, '--key', `${TINY}:enterprise:2:1000`]);
  return new Promise((resolveUrl, reject) => {
    cli.child.stdout!.on('data', () => {
      const url = /listening on (\S+)\n/.exec(cli.stdout())?.[1];
      if (url) resolveUrl(url);
    });
    void cli.exited.then(({ code, stderr }) => reject(new Error(`petstore-service exited with ${code}: ${stderr}`)));
  });
}

/** The served document; a flaky server answers 503 now and then, so ask until it answers. */
async function servedDocument(baseUrl: string): Promise<OpenAPI3> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetch(`${baseUrl}/openapi.json`);
    if (response.ok) return response.json();
  }
  throw new Error(`no document from ${baseUrl}/openapi.json in 50 attempts`);
}

let work: string;
let compiled: { code: number; output: string };

// The project a user would have: the generated types, their program, and the packages from npm
// (this repository's node_modules, linked, so tsc and node resolve openapi-fetch and @types/node).
beforeAll(async () => {
  const document = await servedDocument(await startCommand());
  work = mkdtempSync(join(tmpdir(), 'petstore-consumer-'));
  symlinkSync(resolve('node_modules'), join(work, 'node_modules'), 'dir');
  writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(join(work, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(join(work, 'petstore-api.d.ts'), astToString(await openapiTS(document)));
  copyFileSync(resolve('test/consumer/fixture/consumer.ts'), join(work, 'consumer.ts'));
  mkdirSync(join(work, 'out'));
  compiled = await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], work);
}, COMPILE_MS);
afterAll(() => work && !process.env.KEEP_CONSUMER && rmSync(work, { recursive: true, force: true }));

describe('a client generated from the served document (openapi-typescript + openapi-fetch)', () => {
  it('compiles under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess and skipLibCheck: false, handling exactly the statuses the document declares', () => {
    expect(compiled.output, 'tsc on the consumer and its generated types').toBe('');
    expect(compiled.code).toBe(0);
  });

  it('creates pets, pages through them by the Link header, gets one, and meets 503s and a 429 that the document all declares', {
    timeout: 60_000,
  }, async () => {
    const baseUrl = await startCommand();
    const document = await servedDocument(baseUrl);
    const { code, stdout, output } = await run(process.execPath, ['out/consumer.js', baseUrl, KEY, TINY], work);
    expect(code, output).toBe(0);
    const report = JSON.parse(stdout) as {
      created: number[];
      listed: number[];
      pages: number;
      fetched: { id: number; name: string } | null;
      deprecation: string | null;
      missing: { outcome: string; code: string | null };
      refusal: { status: number; outcome: string; retryAfter: number } | null;
      surprises: string[];
      received: { method: string; url: string; status: number; headers: [string, string][]; body: string }[];
    };

    // What the program did, as a user would check it.
    expect(report.created).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect([report.listed, report.pages]).toEqual([[1, 2, 3, 4, 5, 6, 7], 3]);
    expect(report.fetched).toMatchObject({ id: 1, name: 'Rex' });
    expect(report.deprecation).toMatch(/^@\d+$/);
    expect(report.missing).toEqual({ outcome: 'missing', code: 'not_found' });
    expect(report.refusal).toEqual({ status: 429, outcome: 'retry', retryAfter: expect.any(Number) });
    expect(report.refusal!.retryAfter).toBeGreaterThanOrEqual(1);
    const statuses = report.received.map((r) => r.status);
    expect(statuses, 'the server was flaky, as --fail-rate asks').toContain(503);
    expect(statuses).toContain(429);

    // Every answer, judged by the document the types were generated from.
    const check = createStrictChecker(document);
    const problems = report.received.flatMap(({ method, url, status, headers, body }) => {
      const { pathname, search } = new URL(url);
      // Listed once per operation and kind, not once per page or retry.
      return check({ method, target: `${pathname}${search}`, status, headers: new Headers(headers), body }).map((p) => p.replace(/\?\S*/, ''));
    });
    expect([...new Set([...report.surprises, ...problems])], 'answers the served document does not declare').toEqual([]);
  });
});
