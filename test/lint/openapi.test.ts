/** The served OpenAPI documents, the API's and the admin API's, pass Redocly's recommended rules and Spectral's `spectral:oas` (the real CLIs) with no problem at all but the dashboard's address. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';

const run = promisify(execFile);
const ADMIN_TOKEN = 'admin-token-0123456789';

/** What a linter reported, one line per problem: `rule at path: message`. */
type Problems = string[];

/** The document `response` carries, written to a fresh directory for the CLIs to read. */
async function documentFile(response: Response): Promise<{ directory: string; file: string }> {
  expect(response.status).toBe(200);
  const directory = mkdtempSync(join(tmpdir(), 'petstore-openapi-'));
  const file = join(directory, 'openapi.json');
  writeFileSync(file, await response.text());
  return { directory, file };
}

/** `redocly lint` with its built-in recommended rules: every problem, warnings included. */
async function redocly(file: string): Promise<Problems> {
  const { stdout, stderr } = await run('node_modules/.bin/redocly', ['lint', file, '--format=json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout: string; stderr: string }) => error);
  // The CLI prints notices (Node's end of life) before its JSON.
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly printed no report: ${stderr}`);
  const report = JSON.parse(stdout.slice(start)) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
  return report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
}

/** `spectral lint` with a ruleset that is `spectral:oas` and nothing else: every result, hints included. */
async function spectral({ directory, file }: { directory: string; file: string }): Promise<Problems> {
  const ruleset = join(directory, '.spectral.json');
  writeFileSync(ruleset, JSON.stringify({ extends: ['spectral:oas'] }));
  const output = join(directory, 'spectral.json');
  const { stderr } = await run('node_modules/.bin/spectral', ['lint', file, '--ruleset', ruleset, '--format', 'json', '--output', output, '--quiet']).catch(
    (error: { stdout: string; stderr: string }) => error,
  );
  const results = JSON.parse(readFileSync(output, 'utf8').trim() || 'null') as { code: string; path: string[]; message: string }[] | null;
  if (results === null) throw new Error(`spectral wrote no report: ${stderr}`);
  return results.map((r) => `${r.code} at /${r.path.join('/')}: ${r.message}`);
}

const apiDocument = () => createPetStore().fetch('http://localhost/v1/openapi.json');
const adminDocument = () =>
  createPetStore({ admin: { token: ADMIN_TOKEN } }).fetch('http://localhost/__admin/openapi.json', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

/**
 * The only problems allowed, each a choice the admin document states: the dashboard lives at
 * `/__admin/` (the address, a folder, so the page's relative links resolve under any mount
 * path), and `/__admin` only sends the browser there (a 308, no 2xx of its own).
 */
const DASHBOARD_ADDRESS: Problems = [
  'no-path-trailing-slash at #/paths/~1__admin~1: `/__admin/` should not have a trailing slash.',
  'operation-2xx-response at #/paths/~1__admin/get/responses: Operation must have at least one `2XX` response.',
  'operation-2xx-response at #/paths/~1__admin/head/responses: Operation must have at least one `2XX` response.',
  'path-keys-no-trailing-slash at /paths//__admin/: Path must not end with slash.',
];
const unexpected = (problems: Problems) => problems.filter((problem) => !DASHBOARD_ADDRESS.includes(problem));

describe.each([
  ['the API document (GET /v1/openapi.json)', apiDocument],
  ['the admin document (GET /__admin/openapi.json)', adminDocument],
])('%s', (_, served) => {
  it('has no error and no warning under Redocly recommended rules', async () => {
    const { file } = await documentFile(await served());
    expect(unexpected(await redocly(file))).toEqual([]);
  }, 60_000);

  it('has no error, warning or hint under Spectral spectral:oas', async () => {
    expect(unexpected(await spectral(await documentFile(await served())))).toEqual([]);
  }, 60_000);
});
