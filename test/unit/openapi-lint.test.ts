/** The served OpenAPI documents, the API's and the admin API's, pass `redocly lint` (the real CLI) with no errors. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';

/** `redocly lint` (recommended rules) on the document `response` carries: the problems, and the CLI's stderr. */
async function lint(response: Response) {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-openapi-')), 'openapi.json');
  writeFileSync(file, await response.text());
  const { stdout, stderr } = await promisify(execFile)('node_modules/.bin/redocly', ['lint', file, '--format=json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout: string; stderr: string }) => error);
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; severity: string; message: string }[];
  };
  return { report, stderr };
}

describe('redocly lint', () => {
  it('finds 0 errors in the served document (recommended rules)', async () => {
    const { report, stderr } = await lint(await createPetStore().fetch('http://localhost/v1/openapi.json'));
    expect(
      report.problems.filter((p) => p.severity === 'error'),
      stderr,
    ).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // The one warning: MethodNotAllowed is declared but, by its nature, belongs to no operation.
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual(['no-unused-components: Component: "MethodNotAllowed" is never used.']);
  }, 60_000);

  it('finds 0 errors in the served admin document (recommended rules)', async () => {
    const token = 'admin-token-0123456789';
    const { report, stderr } = await lint(
      await createPetStore({ admin: { token } }).fetch('http://localhost/__admin/openapi.json', { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(
      report.problems.filter((p) => p.severity === 'error'),
      stderr,
    ).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // The two warnings: an unknown admin path (404) and a wrong method (405) belong to no operation.
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([
      'no-unused-components: Component: "NotFound" is never used.',
      'no-unused-components: Component: "MethodNotAllowed" is never used.',
    ]);
  }, 60_000);
});
